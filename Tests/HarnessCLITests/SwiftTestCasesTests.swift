import Foundation
import TestSupport
import Testing
import HarnessCore
@testable import HarnessFlows
@testable import HarnessSteps
@testable import harness

/// `harness swift-test` and a parameterized test (as `FlowCases` runs a folder of flows): each
/// argument case is a case of its own in the results, the JUnit file and the report, where a
/// case that left a trace under its name (``SwiftTestCaseName``) shows its own timeline; and a
/// report of Swift tests only says "tests".
@Suite struct SwiftTestCasesTests {
    static let test = "AppTests.Flows/flow(_:)"
    static let streamID = "AppTests.Flows/flow(_:)/Flows.swift:8:4"

    /// What Swift Testing 6.3 writes to `--event-stream-output-path` for `flow(_:)` run over
    /// three flows (ids shortened, backtraces left out): a.flow passes in 0.25 s, b.flow records
    /// an issue, c.flow is cancelled (`Test.cancel`, as `FlowCases` cancels a flow whose program
    /// is not installed).
    static let eventStream = [
        #"{"kind":"test","payload":{"_testCases":[{"displayName":"Tests/Flows/a.flow","id":"A"},{"displayName":"Tests/Flows/b.flow","id":"B"},{"displayName":"Tests/Flows/c.flow","id":"C"}],"id":"\#(streamID)","isParameterized":true,"kind":"function","name":"flow(_:)","sourceLocation":{"_filePath":"/pkg/Tests/AppTests/Flows.swift","column":4,"fileID":"AppTests/Flows.swift","line":8}},"version":0}"#,
        #"{"kind":"event","payload":{"instant":{"absolute":10.0,"since1970":0},"kind":"testStarted","messages":[{"symbol":"default","text":"Test flow(_:) started."}],"testID":"\#(streamID)"},"version":0}"#,
        #"{"kind":"event","payload":{"_testCase":{"displayName":"Tests/Flows/a.flow","id":"A"},"instant":{"absolute":10.0,"since1970":0},"kind":"testCaseStarted","messages":[],"testID":"\#(streamID)"},"version":0}"#,
        #"{"kind":"event","payload":{"_testCase":{"displayName":"Tests/Flows/b.flow","id":"B"},"instant":{"absolute":10.0,"since1970":0},"kind":"testCaseStarted","messages":[],"testID":"\#(streamID)"},"version":0}"#,
        #"{"kind":"event","payload":{"_testCase":{"displayName":"Tests/Flows/a.flow","id":"A"},"instant":{"absolute":10.25,"since1970":0},"kind":"testCaseEnded","messages":[],"testID":"\#(streamID)"},"version":0}"#,
        #"{"kind":"event","payload":{"_comments":["expect \"Saved\": the screen never showed it"],"_testCase":{"displayName":"Tests/Flows/b.flow","id":"B"},"instant":{"absolute":10.5,"since1970":0},"issue":{"isKnown":false,"sourceLocation":{"_filePath":"/pkg/Tests/Flows/b.flow","column":1,"fileID":"Flows/b.flow","line":4}},"kind":"issueRecorded","messages":[{"symbol":"fail","text":"Issue recorded"},{"symbol":"details","text":"expect \"Saved\": the screen never showed it"}],"testID":"\#(streamID)"},"version":0}"#,
        #"{"kind":"event","payload":{"_testCase":{"displayName":"Tests/Flows/b.flow","id":"B"},"instant":{"absolute":10.5,"since1970":0},"kind":"testCaseEnded","messages":[],"testID":"\#(streamID)"},"version":0}"#,
        #"{"kind":"event","payload":{"_testCase":{"displayName":"Tests/Flows/c.flow","id":"C"},"instant":{"absolute":10.5,"since1970":0},"kind":"testCaseStarted","messages":[],"testID":"\#(streamID)"},"version":0}"#,
        #"{"kind":"event","payload":{"_comments":["sh is not installed"],"_testCase":{"displayName":"Tests/Flows/c.flow","id":"C"},"instant":{"absolute":10.5,"since1970":0},"kind":"testCaseCancelled","messages":[],"testID":"\#(streamID)"},"version":0}"#,
        #"{"kind":"event","payload":{"_testCase":{"displayName":"Tests/Flows/c.flow","id":"C"},"instant":{"absolute":10.5,"since1970":0},"kind":"testCaseEnded","messages":[],"testID":"\#(streamID)"},"version":0}"#,
        #"{"kind":"event","payload":{"instant":{"absolute":10.5,"since1970":0},"kind":"testEnded","messages":[],"testID":"\#(streamID)"},"version":0}"#,
    ].joined(separator: "\n")

    /// Swift Testing's own xUnit file: one collapsed case for the whole test.
    static let xunit = """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites><testsuite name="TestResults" errors="0" tests="1" failures="1" skipped="0" time="0.5">
        <testcase classname="AppTests.Flows" name="flow(_:)" time="0.5"><failure message="Issue recorded (error): expect" /></testcase>
        </testsuite></testsuites>
        """

    static func caseName(_ flow: String) -> String { SwiftTestCaseName.name(test: test, arguments: "Tests/Flows/\(flow)") }

    /// The results `harness swift-test` makes of the stream and the xUnit file.
    static func results() throws -> [FlowResult] {
        try withTemporaryDirectory { folder in
            var results = SwiftTestResults(packageDirectory: "/pkg")
            try results.readXUnit(path: try writeFile(xunit, at: "x-swift-testing.xml", in: folder.path))
            results.readEventStream(Data(eventStream.utf8))
            return results.results(for: [test], problem: nil)
        }
    }

    @Test func eachArgumentCaseIsAResultOfItsOwn() throws {
        let results = try Self.results()
        try #require(results.map(\.path) == ["a.flow", "b.flow", "c.flow"].map(Self.caseName))
        #expect(results.map(\.status) == [.passed, .failed, .skipped])
        #expect(results.allSatisfy { $0.parentTest == Self.test })
        #expect(results[0].duration == .milliseconds(250))
        // The issue's own text, not Swift Testing's "Issue recorded" heading, at the flow's line.
        #expect(results[1].failureMessage == #"expect "Saved": the screen never showed it"#)
        #expect(results[1].failurePosition?.description == "Tests/Flows/b.flow:4:1")
        #expect(results[2].skipReason == "sh is not installed")
    }

    @Test func junitNamesEachCaseUnderItsSuiteAndDurationsAddUpToTheTest() throws {
        let results = try Self.results()
        let junit = JUnitReport(results: results, suiteName: SwiftTestSuite.junitSuiteName, failureType: SwiftTestSuite.junitFailureType)
        let cases = junit.suites.flatMap(\.cases)
        try #require(cases.count == 3)
        #expect(cases.map(\.classname) == ["AppTests.Flows", "AppTests.Flows", "AppTests.Flows"])
        #expect(cases.map(\.name) == ["flow(_:) [Tests/Flows/a.flow]", "flow(_:) [Tests/Flows/b.flow]", "flow(_:) [Tests/Flows/c.flow]"])
        guard case .failure(let detail) = cases[1].result else {
            Issue.record("b.flow's case did not fail: \(cases[1].result)")
            return
        }
        #expect(detail.type == "TestFailure")
        try withTemporaryDirectory { folder in
            let path = folder.path + "/junit.xml"
            try JUnitWriter.write(junit, to: path)
            // The shards are planned by test, so a test's cases count together (0.25 + 0.5 + 0 s).
            let durations = try SwiftTestShardRun.durations(from: path, for: [Self.test, "AppTests.Other/other()"])
            #expect(durations == [Self.test: 0.75])
        }
    }

    /// A case's trace, as `FlowCases` leaves it for the case it runs: named after the case.
    static func writeTrace(of flow: String, failing: Bool, in folder: String) {
        let name = caseName(flow)
        let start = Date()
        var steps = [FlowTrace.Step(text: "launch", line: 2, start: 0, duration: 0.1, result: .passed, problem: nil, screen: nil)]
        steps.append(FlowTrace.Step(text: "expect \"Saved\" in \(flow)", line: 4, start: 0.1, duration: 0.2,
                                    result: failing ? .failed : .passed, problem: failing ? "the screen never showed it" : nil, screen: nil))
        let traces = FlowTraceCollector(mode: .on)
        traces.add(FlowTrace(path: name, attempt: 1, startDate: start, duration: 0.3, steps: steps))
        let outcome: AttemptOutcome = failing ? .failed(FlowFailure(message: "expect \"Saved\": the screen never showed it")) : .passed
        StepEngine.writeReport(of: FlowFile(path: "/pkg/Tests/Flows/\(flow)", relativePath: name), outcome: outcome,
                               duration: .milliseconds(300), traces: traces, in: folder)
    }

    @Test(.enabled(if: HeadlessChromium.isInstalled, "chromium is not installed (.ci/run installs it: apt-get install -y chromium)"))
    func theReportShowsEachCaseAndTheFailingOneWithItsTimelineInChromium() async throws {
        let results = try Self.results()
        try await withTemporaryDirectory { folder in
            Self.writeTrace(of: "a.flow", failing: false, in: folder.path)
            Self.writeTrace(of: "b.flow", failing: true, in: folder.path)
            let report = try SwiftTestSuite.report(results, folder: folder.path)
            let page = try RunReportWriter.write(report, toFolder: folder.path)
            let dom = try await HeadlessChromium.dumpDOM(of: page)
            #expect(dom.contains("data-ready=\"1\""), "the page's script ran to its end")
            let rows = RunReportBrowserTests.elements(in: dom, from: "<tr class=\"flow-row", to: "</tr>")
            #expect(rows.count == 3, "\(rows)")
            let failing = try #require(RunReportBrowserTests.element(in: dom, from: "<details class=\"flow failed\"", to: "</details>"))
            #expect(failing.contains("flow(_:) [Tests/Flows/b.flow]"))
            let step = try #require(RunReportBrowserTests.element(in: failing, from: "<tr class=\"step failed failing\"", to: "</tr>"))
            #expect(step.contains("expect \"Saved\" in b.flow"), "its own timeline, not a.flow's")
            // A report of Swift tests only says "tests".
            #expect(dom.contains("<h1>Swift tests</h1>"))
            #expect(dom.contains("<h2>Tests</h2>") && dom.contains("<th>Test</th>") && dom.contains("Slowest tests"))
            #expect(dom.contains("test time") && dom.contains("Search tests by name"))
            #expect(!dom.contains("<h2>Flows</h2>") && !dom.contains("flow time"))
        }
    }

    /// `harness merge-reports` of `harness swift-test` shards says "tests" (title, headings,
    /// JUnit failure type); merged with flows, the report says "flows".
    @Test func mergedSwiftTestShardsSayTestsAndAMixedMergeSaysFlows() async throws {
        let fake = try FakeSwift(tests: ["FakeTests.Suite/passes()", "FakeTests.Suite/itFails()", "FakeTests.Suite/alsoPasses()"])
        defer { fake.remove() }
        let folder = fake.folder
        try folder.write("app sh -c \"echo one; exec cat\"\nlaunch\nexpect \"one\"\n", at: "flows/one.flow")
        let swift = ["swift-test", "--swift", fake.executable, "--package-path", fake.package]
        for index in 1...2 {
            _ = try await runHarness(swift + ["--shard", "\(index)/2", "--artifacts", "swift-\(index)"], in: folder.path)
        }
        _ = try await runHarness(["run", "flows", "--artifacts", "flows"], in: folder.path)

        // What each merge says: its title, its case kind, its heading and column, its JUnit failure types.
        for (out, shards, title, kind, noun) in [("tests", ["swift-1", "swift-2"], "Swift tests", RunReport.CaseKind.tests, "Test"),
                                                 ("mixed", ["swift-1", "swift-2", "flows"], "Flow run", .flows, "Flow")] {
            let merged = try await runHarness(["merge-reports", out] + shards, in: folder.path)
            #expect(merged.status == 0, "\(merged.stdout)\(merged.stderr)")
            let report = try RunReportWriter.read(folder: folder.path + "/" + out)
            #expect(report.title == title)
            #expect(report.caseKind == kind)
            let page = try String(contentsOfFile: folder.path + "/\(out)/index.html", encoding: .utf8)
            #expect(page.contains("<h2>\(noun)s</h2>") && page.contains("<th>\(noun)</th>"), "\(out)")
            let junit = try JUnitReader.read(path: folder.path + "/\(out)/junit.xml")
            let types = Set(junit.suites.flatMap(\.cases).compactMap { testCase -> String? in
                guard case .failure(let detail) = testCase.result else { return nil }
                return detail.type
            })
            #expect(types == [kind == .tests ? "TestFailure" : "FlowFailure"], "\(out): \(junit)")
        }
    }
}
