import Foundation
import TestSupport
import Testing
import Harness
@testable import HarnessFlows
@testable import HarnessSteps

/// A wait that timed out shows the screen it last checked, never a newer one: output that
/// arrives after the deadline, before the failure is written, is shown second and said to be
/// late. The ordering a race used to decide is made explicit: the program prints "ready" only
/// when the test, after the timeout, sends it a line, and the failure is written after that.
@Suite struct StaleFailureScreenTests {
    static let program = """
        stty -echo
        printf 'waiting\\r\\n'
        read x
        printf 'ready\\r\\n'
        read y

        """

    static let late = "Output arrived after the deadline; the screen now:"

    /// One run of `expect "ready" within 20ms` in the front end `frontEnd`, with "ready" drawn
    /// after the timeout and before the failure message is made; returns the message.
    static func failureMessage(frontEnd: String, fixture: FlowFixture) async throws -> String {
        let run: FlowRun
        let steps: [EngineStep]
        if frontEnd == "flow" {
            let script = try fixture.script("""
                app sh ./late.sh
                size 30x4
                launch
                expect "waiting"
                expect "ready" within 20ms
                """)
            run = FlowRun(script: script, flow: FlowFile(path: fixture.folder + "/t.flow", relativePath: "t.flow"),
                          attempt: 1, options: testOptions())
            steps = script.steps.map(EngineStep.init)
        } else {
            var launch = AppLaunch(executable: "/bin/sh", arguments: ["./late.sh"])
            launch.environment = testEnvironment
            launch.workingDirectory = fixture.folder
            launch.size = TerminalSize(cols: 30, rows: 4)
            launch.defaultTimeout = mustSucceedTimeout
            let app = try await TerminalApp.launch(launch)
            run = FlowRun(swiftTest: SnapshotPlace(filePath: "\(#filePath)", function: #function), name: "late",
                          steps: [], app: app, pipedApp: nil, stubServer: nil, options: testOptions())
            steps = AppStep.expect(.text("waiting"), .text("ready", within: .milliseconds(20))).engineSteps
        }
        do {
            let message = try await lateFailureMessage(run, steps)
            await run.tearDown(failed: false)
            return message
        } catch {
            await run.tearDown(failed: false)
            throw error
        }
    }

    /// Runs `steps`, the last of which times out; draws "ready" after the deadline, then makes
    /// the failure message.
    static func lateFailureMessage(_ run: FlowRun, _ steps: [EngineStep]) async throws -> String {
        for step in steps.dropLast() { try await run.perform(step) }
        let last = try #require(steps.last)
        var timeout: (any Error)?
        do { try await run.perform(last) } catch { timeout = error }
        let error = try #require(timeout)
        // After the deadline, before the failure is written: the output arrives.
        let session = try #require(run.app?.session)
        try session.type("go\r")
        try await session.waitFor(text: "ready")
        return run.failure(error, at: last).message
    }

    @Test(arguments: ["flow", "swift"])
    func aTimeoutNeverShowsAScreenNewerThanTheOneItChecked(frontEnd: String) async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try fixture.write(Self.program, at: "late.sh")
        var newer = 0
        var lastMessage = ""
        for _ in 0..<50 {
            let message = try await Self.failureMessage(frontEnd: frontEnd, fixture: fixture)
            let parts = message.components(separatedBy: Self.late)
            // Before the "late" line: the screen the wait checked, which never showed "ready".
            if parts[0].contains("│ready") || parts.count != 2 || !parts[1].contains("│ready") { newer += 1 }
            lastMessage = message
        }
        #expect(newer == 0, "\(lastMessage)")
        #expect(lastMessage.hasPrefix(#"expect "ready" within 20ms: Timed out after 20 ms waiting for text "ready"."#), "\(lastMessage)")
        #expect(lastMessage.contains("Screen (the last one the wait checked):\n┌"), "\(lastMessage)")
    }

    /// docs/FLOWS.md's "Synchronized frames and what a timeout shows" shows these headings.
    @Test func theDocsShowTheMessageAsWritten() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let docs = try String(contentsOf: root.appendingPathComponent("docs/FLOWS.md"), encoding: .utf8)
        let lines = FlowRun.screenLines(checked: "old", now: "new")
        #expect(docs.contains("\n\(lines[0])\n…\n\(lines[2])\n…\n"))
        #expect(docs.contains(#"expect "ready" within 200ms: Timed out after 200 ms waiting for text "ready"."#))
    }

    @Test func withoutLateOutputTheOneScreenIsShown() {
        let lines = FlowRun.screenLines(checked: "┌─┐\n│a│\n└─┘", now: "┌─┐\n│a│\n└─┘")
        #expect(lines == ["Screen:", "┌─┐\n│a│\n└─┘"])
        #expect(FlowRun.screenLines(checked: nil, now: "now") == ["Screen:", "now"])
        #expect(FlowRun.screenLines(checked: "old", now: "new") == [
            "Screen (the last one the wait checked):", "old", Self.late, "new"])
    }
}
