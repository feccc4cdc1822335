import Foundation
import Harness
import HarnessFlowCases
import Testing
import TestSupport

/// Tests that fail on purpose, run only by `Scripts/attachments-check.sh` (which sets
/// `HARNESS_DELIBERATE_FAILURES=1`): it runs them with `swift test --attachments-path DIR`
/// and checks what a failing test leaves behind (the attachments in `DIR`, the artifacts in
/// `HARNESS_ARTIFACTS`) and how often its failure is reported. Skipped in the normal suite.
@Suite(.enabled(if: DeliberateFailures.enabled, "only run by Scripts/attachments-check.sh"))
struct DeliberateFailureTests {
    /// A plain `#expect` fails inside `with`; nothing throws.
    @Test func aFailedExpectationInsideWith() async throws {
        try await TerminalApp.with(DeliberateFailures.launch()) { app in
            try await app.waitFor(text: "deliberate screen")
            #expect(app.screen.contains("a line the app never printed"))
        }
    }

    /// A failure that stops the test (as a failed step does) is reported once, at its line.
    @Test func aStoppedStep() async throws {
        try await TerminalApp.with(DeliberateFailures.launch()) { app in
            try await app.waitFor(text: "deliberate screen")
            try await FailureReporter.failAndStop(
                "deliberate step failure", at: SourceCodeLocation(line: 4242), throwing: DeliberateFailures.Stopped())
        }
    }
}

extension DeliberateFailureTests {
    /// A failed step of `app.run` is reported once, at the step's line, with its screen attached.
    @Test func aFailedStep() async throws {
        try await TerminalApp.with(DeliberateFailures.launch()) { app in
            try await app.run(AppStep.expect(.text("deliberate screen")), AppStep(.type("x"), expect: .noText("deliberate")))
        }
    }
}

extension DeliberateFailureTests {
    /// A failed wait in `TerminalApp.with` is reported once, at the wait's line.
    @Test func aFailedWait() async throws {
        try await TerminalApp.with(DeliberateFailures.launch()) { app in
            try await app.waitFor(text: "deliberate screen")
            try await app.waitFor(text: "a line the app never printed", timeout: .milliseconds(1))  // the failed wait of aFailedWait
        }
    }

    /// A failed wait in `TerminalSession.withSession` is reported once, at the wait's line, and
    /// the session's screen and recording are attached.
    @Test func aFailedSessionWait() async throws {
        let configuration = shell("printf 'deliberate screen\\n'", size: TerminalSize(cols: 40, rows: 5))
        _ = try await TerminalSession.withSession(configuration) { session in
            try await session.waitFor(text: "a line the program never printed")  // the failed wait of aFailedSessionWait
        }
    }

    /// A failed wait in `PipedApp.with` is reported once, at the wait's line, and what the
    /// program wrote is attached.
    @Test func aFailedPipedWait() async throws {
        var launch = AppLaunch(executable: "/bin/sh", arguments: ["-c", "printf 'deliberate output\\n'; exec sleep 600"])
        launch.defaultTimeout = mustSucceedTimeout
        try await PipedApp.with(launch) { app in
            try await app.session.waitForExit(timeout: .milliseconds(1))  // the failed wait of aFailedPipedWait
        }
    }
}

extension DeliberateFailureTests {
    /// A failed wait outside any scope (the session launched in the test's body) is reported
    /// once, at the wait's line, and the error escaping the test adds no "Caught error".
    @Test func aFailedBareWait() async throws {
        let session = try TerminalSession.launch(shell("printf 'deliberate screen\\n'", size: TerminalSize(cols: 40, rows: 5)))
        defer { session.terminate() }
        try await session.waitFor(text: "a line the program never printed", timeout: .milliseconds(1))  // the failed wait of aFailedBareWait
    }

    /// Where ``aFlowCase(_:)`` writes its flows (one case at a time: each removes it when done).
    static let flowFolder = FileManager.default.temporaryDirectory
        .appendingPathComponent("harness-deliberate-flows-\(ProcessInfo.processInfo.processIdentifier)").path

    /// Two flows run through `FlowCases`, one failing: `harness swift-test` shows each as a case
    /// of its own, the failing one with its timeline (checked by attachments-check.sh).
    @Test(.serialized, arguments: ["passes", "fails"].map { FlowFile(path: "\(flowFolder)/\($0).flow", relativePath: "DeliberateFlows/\($0).flow") })
    func aFlowCase(_ flow: FlowFile) async throws {
        try FileManager.default.createDirectory(atPath: Self.flowFolder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: Self.flowFolder) }
        var text = "app /bin/sh -c \"echo deliberate flow; read line\"\nlaunch\nexpect \"deliberate flow\"\n"
        if flow.name == "fails" { text += "expect \"a line the flow never printed\" within 100ms\n" }
        try text.write(toFile: flow.path, atomically: true, encoding: .utf8)
        try await FlowCases.run(flow)
    }
}

/// What the deliberately failing tests share.
enum DeliberateFailures {
    /// The environment variable that lets them run.
    static let variable = "HARNESS_DELIBERATE_FAILURES"

    static var enabled: Bool { ProcessInfo.processInfo.environment[variable] == "1" }

    struct Stopped: Error {}

    /// A program that shows one line and waits.
    static func launch() -> AppLaunch {
        var launch = AppLaunch(executable: "/bin/sh", arguments: ["-c", "printf 'deliberate screen\\n'; exec cat"])
        launch.size = TerminalSize(cols: 40, rows: 5)
        launch.defaultTimeout = mustSucceedTimeout
        return launch
    }
}
