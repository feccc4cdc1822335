import Foundation
import TestSupport
import Testing
import Harness
import Stubs
@testable import HarnessFlows
@testable import HarnessSteps

/// A failing Swift acceptance test's steps leave the trace a failing flow leaves, and
/// `harness merge-reports` turns a folder of them into the same report, shown in Chromium:
/// timeline with the failing step at its Swift line, per-step screens, stub requests, bridge
/// events and the replay.
@Suite struct SwiftTraceReportTests {
    /// The todo app with its bridge, on `server`'s network.
    func launchTodo(on server: StubServer) async throws -> TerminalApp {
        var launch = AppLaunch(executable: try BuildProducts.executable(named: "todo").path)
        launch.launchProtocol = .bridge
        launch.network = server.baseURL
        launch.environment = testEnvironment
        launch.defaultTimeout = mustSucceedTimeout
        return try await TerminalApp.launch(launch)
    }

    /// The steps of `RunReportBrowserTests.failingFlow`, in Swift.
    func runFailingSwiftSteps(artifacts: String) async throws -> (outcome: StepEngine.Outcome, line: Int) {
        let server = try StubServer()
        defer { server.stop() }
        server.stub(.get("/todos"), .text("database down", status: 500))
        let app = try await launchTodo(on: server)
        defer { app.close(failed: false) }
        let failingLine = #line + 4
        let steps = [
            AppStep.expect(.text("[ Start ]")),
            AppStep(.press(.enter), expect: .text("Oops")),
            AppStep.expect(.text("[ Try later ]", within: .milliseconds(500))),
            AppStep.expect(.events("state", ["idle", "loading", "error"])),
        ].flatMap(\.engineSteps)
        var options = FlowExecutor.Options(environment: testEnvironment)
        options.artifactsDirectory = artifacts
        let outcome = await StepEngine.run(steps, app: app, stubServer: server,
                                           test: SnapshotPlace(filePath: "\(#filePath)", function: #function),
                                           name: "SwiftTraceReportTests/failingTest()", options: options)
        return (outcome, failingLine)
    }

    @Test func aFailingSwiftTestLeavesTheFlowTrace() async throws {
        try await withTemporaryDirectory { folder in
            let artifacts = folder.path + "/swift"
            let (outcome, line) = try await runFailingSwiftSteps(artifacts: artifacts)
            guard case .failed(let index, let message) = outcome else {
                Issue.record("expected a failure, got \(outcome)")
                return
            }
            #expect(index == 3)
            #expect(message.hasPrefix(#"expect "[ Try later ]" within 500ms: Timed out after 500 ms waiting for text "[ Try later ]"."#))

            // merge-reports' reader takes the folder without a results.json.
            let report = try RunReportWriter.read(folder: artifacts)
            let test = try #require(report.flows.first)
            #expect(report.flows.count == 1)
            #expect(test.path == "SwiftTraceReportTests/failingTest()")
            #expect(test.status == .failed)
            let attempt = try #require(test.attempts.last)
            #expect(attempt.position?.line == line)
            let trace = try #require(attempt.trace)
            #expect(trace.steps.first { $0.result == .failed }?.line == line)
            #expect(trace.steps.map(\.result).filter { $0 == .notRun }.count == 1)
            #expect(trace.requests.map { "\($0.method) \($0.target) \($0.status)" } == ["GET /todos 500"])
            #expect(trace.messages.filter { $0.kind == .event }.map(\.value) == ["\"idle\"", "\"loading\"", "\"error\""])
            #expect((trace.replay?.frames.count ?? 0) >= 2)
            #expect(attempt.artifacts?.cast != nil && attempt.artifacts?.screenSVG != nil)
            if let cast = attempt.artifacts?.cast {
                #expect(FileManager.default.fileExists(atPath: artifacts + "/" + cast))
            }
        }
    }

    /// An app's values are cut at 300 characters in the trace: the todo app's spy records the
    /// whole list it saves, here 20 todos (about 1,500 characters of JSON).
    @Test func theTraceCutsAnAppsLongValues() async throws {
        let server = try StubServer()
        defer { server.stop() }
        let todos = (1...20).map { #"{"userId": 1, "id": \#($0), "title": "todo number \#($0) of twenty", "completed": false}"# }
        server.stub(.get("/todos"), .json(text: "[" + todos.joined(separator: ", ") + "]"))
        let app = try await launchTodo(on: server)
        defer { app.close(failed: false) }
        let recorder = FlowTraceRecorder()
        try await app.run(AppStep.expect(.text("[ Start ]")), AppStep(.press(.enter), expect: .spyCount("database.save", 1)))
        let saved = try #require(FlowRun.bridgeMessages(of: app, trace: recorder).first { $0.kind == .spy })
        #expect(saved.name == "database.save")
        #expect(saved.value.count == 301 && saved.value.hasPrefix(#"[{"#) && saved.value.hasSuffix("…"), "\(saved.value)")
        let states = FlowRun.bridgeMessages(of: app, trace: recorder).filter { $0.kind == .event }.map(\.value)
        #expect(states.prefix(2) == [#""idle""#, #""loading""#], "short values are kept whole")
    }

    @Test(.enabled(if: HeadlessChromium.isInstalled, "chromium is not installed (.ci/run installs it: apt-get install -y chromium)"))
    func mergeReportsShowsASwiftTestNextToAFlowInChromium() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        _ = try await runFailingSwiftSteps(artifacts: fixture.folder + "/swift")
        try fixture.write(RunReportBrowserTests.failingFlow, at: "suite/broken.flow")
        let flows = try await runHarness(["run", "suite", "--artifacts", "flows", "--trace", "on"], in: fixture.folder)
        #expect(flows.status == 1, "\(flows.stdout)\n\(flows.stderr)")
        let merged = try await runHarness(["merge-reports", "out", "swift", "flows"], in: fixture.folder)
        #expect(merged.status == 0, "\(merged.stdout)\n\(merged.stderr)")

        let dom = try await HeadlessChromium.dumpDOM(of: fixture.folder + "/out/index.html")
        #expect(dom.contains("data-ready=\"1\""), "the page's script ran to its end")
        let sections = RunReportBrowserTests.elements(in: dom, from: "<details class=\"flow failed\"", to: "</details>")
        #expect(sections.count == 2)
        let swift = try #require(sections.first { $0.contains("SwiftTraceReportTests/failingTest()") })
        let failing = try #require(RunReportBrowserTests.element(in: swift, from: "<tr class=\"step failed failing\"", to: "</tr>"))
        #expect(failing.contains("expect \"[ Try later ]\" within 500ms") && failing.contains("failed here"))
        let request = try #require(RunReportBrowserTests.element(in: swift, from: "<tr class=\"request\"", to: "</tr>"))
        #expect(request.contains("GET /todos") && request.contains(">500<"))
        #expect(RunReportBrowserTests.elements(in: swift, from: "<tr class=\"message event\"", to: "</tr>").count == 3)
        let player = try #require(RunReportBrowserTests.element(in: swift, from: "<div class=\"player\"", to: "<div class=\"controls\">"))
        #expect(RunReportBrowserTests.shownScreen(in: player)?.contains("Oops") == true)
        #expect(dom.contains("data-filter=\"failed\">Failed <b>2</b>"))
    }
}
