import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Harness
import HarnessFlows
import Stubs
import Testing
import TestSupport

/// The `.harnessTrace` trait: a traced test's whole `TerminalApp.with` leaves one timeline in the
/// trait's folder (its direct waits and inputs with their lines, the steps it ran, the requests
/// of the stub server its steps named), which `harness merge-reports` (through
/// `RunReportWriter.read`) reads as a run report.
@Suite struct HarnessTraceTraitTests {
    /// In the build folder, removed by the test.
    static let folder = BuildProducts.directory.appendingPathComponent("trace-trait-test").path

    @Test(.harnessTrace(folder)) func aTracedWithLeavesOneTimelineOfWaitsInputsAndSteps() async throws {
        try? FileManager.default.removeItem(atPath: Self.folder)
        defer { try? FileManager.default.removeItem(atPath: Self.folder) }
        let server = try StubServer()
        defer { server.stop() }
        server.stub(.get("/ping"), .text("pong", status: 201))
        let script = "echo ready; read line; echo got $line; read again; echo done"
        var launch = AppLaunch(executable: "/bin/sh", arguments: ["-c", script])
        launch.defaultTimeout = mustSucceedTimeout
        let waitLine = #line + 2
        try await TerminalApp.with(launch) { app in
            try await app.waitFor(text: "ready")
            let missed = #line + 1
            _ = try? await app.waitFor(text: "never", timeout: .milliseconds(100))
            #expect(app.journal.all.last?.line == missed)
            try app.type("x\r")
            _ = try await URLSession.shared.data(from: server.baseURL.appendingPathComponent("ping"))
            try await app.run(AppStep.expect(.output("got x")), AppStep(.type("y\r"), expect: .output("done")), stubServer: server)
        }
        let report = try RunReportWriter.read(folder: Self.folder)
        #expect(report.flows.count == 1)
        let test = try #require(report.flows.first)
        #expect(test.path == "HarnessTests.HarnessTraceTraitTests/aTracedWithLeavesOneTimelineOfWaitsInputsAndSteps()")
        #expect(test.status == .passed)
        let trace = try #require(test.attempts.last?.trace)
        #expect(trace.steps.map(\.text) == [
            #"wait for text "ready""#, #"wait for text "never""#, #"type "x\r""#,
            #"expect-output "got x""#, #"type "y\r""#, #"expect-output "done""#,
        ])
        #expect(trace.steps.first?.line == waitLine)
        #expect(trace.steps[1].result == .failed && trace.steps[1].problem?.hasPrefix("timed out after") == true)
        #expect(trace.requests.map { "\($0.method) \($0.target) \($0.status)" } == ["GET /ping 201"])
        #expect((trace.replay?.frames.count ?? 0) >= 2)
    }

    static let launchFolder = BuildProducts.directory.appendingPathComponent("trace-trait-test-launch").path

    /// An app launched (not `with`) in a traced test writes its timeline when it closes.
    @Test(.harnessTrace(launchFolder)) func aTracedLaunchWritesItsTimelineWhenClosed() async throws {
        try? FileManager.default.removeItem(atPath: Self.launchFolder)
        defer { try? FileManager.default.removeItem(atPath: Self.launchFolder) }
        var launch = AppLaunch(executable: "/bin/sh", arguments: ["-c", "echo ready; read line; echo got $line"])
        launch.defaultTimeout = mustSucceedTimeout
        let app = try await TerminalApp.launch(launch)
        let line = #line + 1
        try await app.waitFor(text: "ready")
        try await app.run(AppStep(.type("z\r"), expect: .output("got z")))
        #expect(throws: (any Error).self) { try RunReportWriter.read(folder: Self.launchFolder) }  // nothing before close
        app.close(failed: true)
        let report = try RunReportWriter.read(folder: Self.launchFolder)
        let test = try #require(report.flows.first)
        #expect(test.path == "HarnessTests.HarnessTraceTraitTests/aTracedLaunchWritesItsTimelineWhenClosed()")
        #expect(test.status == .failed)
        let trace = try #require(test.attempts.last?.trace)
        #expect(trace.steps.map(\.text) == [#"wait for text "ready""#, #"type "z\r""#, #"expect-output "got z""#, "the test failed"])
        #expect(trace.steps.first?.line == line)
    }

    static let pipesFolder = BuildProducts.directory.appendingPathComponent("trace-trait-test-pipes").path

    /// A program run with pipes in a traced test: its waits and steps, and when it closes as
    /// failed, what it wrote, kept beside its report.
    @Test(.harnessTrace(pipesFolder)) func aTracedPipedRunWritesItsTimelineWhenClosed() async throws {
        try? FileManager.default.removeItem(atPath: Self.pipesFolder)
        defer { try? FileManager.default.removeItem(atPath: Self.pipesFolder) }
        var launch = AppLaunch(executable: "/bin/sh", arguments: ["-c", "sort; echo oops >&2"])
        launch.defaultTimeout = mustSucceedTimeout
        let app = try PipedApp.launch(launch, standardInput: .text("b\na\n"))
        let line = #line + 1
        let output = try await app.session.waitForExit()
        #expect(output.standardOutput == "a\nb\n")
        try await app.run(AppStep.expect(.standardError(.contains("oops"))))
        app.close(failed: true)
        let report = try RunReportWriter.read(folder: Self.pipesFolder)
        let test = try #require(report.flows.first)
        #expect(test.path == "HarnessTests.HarnessTraceTraitTests/aTracedPipedRunWritesItsTimelineWhenClosed()")
        #expect(test.status == .failed)
        let trace = try #require(test.attempts.last?.trace)
        #expect(trace.steps.map(\.text) == ["wait for the program to exit", #"stderr contains "oops""#, "the test failed"])
        #expect(trace.steps.first?.line == line)
        let stdout = try #require(test.attempts.last?.artifacts?.stdout)
        #expect(contents(of: URL(fileURLWithPath: Self.pipesFolder + "/" + stdout)) == "a\nb\n")
    }

    static let sessionFolder = BuildProducts.directory.appendingPathComponent("trace-trait-test-session").path

    /// A bare terminal session in a traced test: `withSession` writes its timeline.
    @Test(.harnessTrace(sessionFolder)) func aTracedSessionWritesItsTimeline() async throws {
        try? FileManager.default.removeItem(atPath: Self.sessionFolder)
        defer { try? FileManager.default.removeItem(atPath: Self.sessionFolder) }
        var configuration = TerminalSession.Configuration(executable: "/bin/sh", arguments: ["-c", "echo ready; read line; echo got $line"])
        configuration.defaultTimeout = mustSucceedTimeout
        let line = #line + 2
        try await TerminalSession.withSession(configuration) { session in
            try await session.waitForOutput(text: "ready")
            try session.press(.character("k"), .enter)
            try await session.waitForOutput(text: "got k")
        }
        let report = try RunReportWriter.read(folder: Self.sessionFolder)
        let test = try #require(report.flows.first)
        #expect(test.path == "HarnessTests.HarnessTraceTraitTests/aTracedSessionWritesItsTimeline()")
        #expect(test.status == .passed)
        let trace = try #require(test.attempts.last?.trace)
        #expect(trace.steps.map(\.text) == [#"wait for output "ready""#, "press k enter", #"wait for output "got k""#])
        #expect(trace.steps.first?.line == line)
        #expect((trace.replay?.frames.count ?? 0) >= 2)
    }

    /// An untraced session records nothing: no entries, no screens kept.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["HARNESS_ARTIFACTS"] == nil, "HARNESS_ARTIFACTS traces every test"))
    func anUntracedSessionKeepsNoJournal() async throws {
        var launch = AppLaunch(executable: "/bin/sh", arguments: ["-c", "echo ready; read line"])
        launch.defaultTimeout = mustSucceedTimeout
        try await TerminalApp.with(launch) { app in
            try await app.waitFor(text: "ready")
            try app.type("x\r")
            try await app.run(AppStep.expect(.text("ready")))
            #expect(app.journal.all.isEmpty)
        }
    }
}
