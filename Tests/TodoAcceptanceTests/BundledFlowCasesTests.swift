import Foundation
import Harness
import HarnessFlowCases
import HarnessFlows
import TestSupport
import Testing

/// Flows as Swift test cases: the bundled flows (`Tests/Flows`) are found, and a broken flow's
/// failure is reported at its own `.flow` line. The bundled flows themselves run as test cases
/// in ReadmeExamplesTests.bundledFlow, the README's example.
@Suite struct BundledFlowCasesTests {
    @Test func theBundledFlowsAreFound() {
        let flows = FlowCases.files(in: "Tests/Flows").map(\.relativePath)
        #expect(flows.contains("Tests/Flows/error.flow"))
        #expect(flows.count >= 15, "found: \(flows)")
    }

    /// A folder without flows is not a passing run: one case stands for it, and fails.
    @Test func aFolderWithoutFlowsFails() async throws {
        let cases = FlowCases.files(in: "Tests/Flows", filter: "no-such-flow-xyz")
        #expect(cases.count == 1)
        let folder = try #require(cases.first)
        #expect(folder.relativePath == "Tests/Flows (no flows found matching /no-such-flow-xyz/)")
        try await withKnownIssue {
            try await FlowCases.run(folder)
        } matching: { issue in
            "\(issue)".contains("no flows found under")
        }
    }

    /// A failed step is one issue, at the flow file's line and column, with `harness run`'s message.
    @Test func aFailedStepIsReportedAtItsFlowLine() async throws {
        try await withTemporaryDirectory { folder in
            let path = try writeFile("""
                app /bin/sh -c "echo ready; read line"
                launch
                expect "ready"
                  expect "never" within 200ms
                """, at: "broken.flow", in: folder.path)
            let flow = FlowFile(path: path, relativePath: "Flows/broken.flow")
            try await withKnownIssue {
                try await FlowCases.run(flow)
            } matching: { issue in
                issue.sourceLocation?.filePath == path && issue.sourceLocation?.line == 4 && issue.sourceLocation?.column == 3
                    && "\(issue)".contains(#"expect "never" within 200ms: Timed out after 200 ms waiting for text "never"."#)
            }
        }
    }

    @Test func aFlowThatDoesNotParseIsReportedAtTheError() async throws {
        try await withTemporaryDirectory { folder in
            let path = try writeFile("app /bin/true\nlaunch\nexpct \"x\"\n", at: "typo.flow", in: folder.path)
            let flow = FlowFile(path: path, relativePath: "Flows/typo.flow")
            try await withKnownIssue {
                try await FlowCases.run(flow)
            } matching: { issue in
                issue.sourceLocation?.filePath == path && issue.sourceLocation?.line == 3
            }
        }
    }

    /// Where ``eachCaseLeavesItsTraceUnderItsCaseName(_:)`` traces (its trait needs a fixed folder).
    static let traceFolder = FileManager.default.temporaryDirectory
        .appendingPathComponent("flow-cases-trace-\(ProcessInfo.processInfo.processIdentifier)").path

    /// The flows of ``eachCaseLeavesItsTraceUnderItsCaseName(_:)``, written by the case that runs each.
    static let tracedFlows = ["one", "two"].map { FlowFile(path: "\(traceFolder)/\($0).flow", relativePath: "Flows/\($0).flow") }

    /// Each flow of a parameterized test leaves its trace named after its own case, the name
    /// `harness swift-test` gives the case's result, so that the report shows each case's timeline.
    /// (One case at a time: each removes the folder when it is done.)
    @Test(.harnessTrace(traceFolder), .serialized, arguments: tracedFlows)
    func eachCaseLeavesItsTraceUnderItsCaseName(_ flow: FlowFile) async throws {
        try FileManager.default.createDirectory(atPath: Self.traceFolder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: Self.traceFolder) }
        try "app /bin/sh -c \"echo ready-\(flow.name); read line\"\nlaunch\nexpect \"ready-\(flow.name)\"\n"
            .write(toFile: flow.path, atomically: true, encoding: .utf8)
        try await FlowCases.run(flow)
        let name = SwiftTestCaseName.name(test: "TodoAcceptanceTests.BundledFlowCasesTests/eachCaseLeavesItsTraceUnderItsCaseName(_:)",
                                          arguments: flow.relativePath)
        let folder = Self.traceFolder + "/" + StepEngine.swiftReportsFolder
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        var mine: [(file: String, report: RunReport)] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder) where file.hasSuffix(".json") {
            let data = try #require(FileManager.default.contents(atPath: folder + "/" + file))
            let report = try decoder.decode(RunReport.self, from: data)
            if report.flows.contains(where: { $0.path.contains(flow.relativePath) }) { mine.append((file, report)) }
        }
        #expect(mine.count == 1)
        let report = try #require(mine.first?.report)
        #expect(report.flows.map(\.path) == [name])
        #expect(report.flows.first?.attempts.last?.trace?.steps.contains { $0.text.contains("ready-\(flow.name)") } == true)
    }
}
