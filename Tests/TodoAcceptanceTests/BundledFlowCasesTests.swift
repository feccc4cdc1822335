import Foundation
import Harness
import HarnessFlowCases
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
                    && "\(issue)".contains(#"expect "never" within 200ms: the screen never showed it within 200ms"#)
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
}
