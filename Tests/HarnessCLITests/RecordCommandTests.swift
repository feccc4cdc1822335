import Foundation
import TestSupport
import Testing
import Harness
@testable import HarnessFlows
@testable import HarnessSteps
@testable import harness

/// `harness record`, driven as a user would: in a terminal of its own. bc and cat never show
/// the alternate screen: they are recorded with `expect-output` lines.
@Suite struct RecordCommandTests {
    func recordSession(_ program: [String], in fixture: FlowFixture) throws -> TerminalSession {
        try TerminalSession.launch(.init(
            executable: try BuildProducts.executable(named: "harness").path,
            arguments: ["record", "--out", "recorded/bc.flow", "--size", "60x10", "--"] + program,
            environment: testEnvironment,
            workingDirectory: fixture.folder, size: TerminalSize(cols: 80, rows: 24), defaultTimeout: mustSucceedTimeout))
    }

    @Test(.enabled(if: isInstalled("bc")))
    func recordsABcSessionAsAFlowThatPasses() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try FileManager.default.createDirectory(atPath: fixture.folder + "/recorded", withIntermediateDirectories: true)
        let session = try recordSession(["bc", "-q"], in: fixture)
        defer { session.terminate() }
        try await session.waitFor(text: "Ctrl-] stops")
        for character in "2+3" { try session.type(String(character)) }
        try session.press(.enter)
        try await session.waitFor(text: "5")
        try session.type("quit")
        try session.press(.enter)
        #expect(try await session.waitForExit() == .exited(0))

        let flow = try String(contentsOfFile: fixture.folder + "/recorded/bc.flow", encoding: .utf8)
        #expect(flow == """
            # Recorded with harness record.
            app bc -q
            size 60x10
            launch
            type "2+3"
            press enter
            expect-output "5"
            type "quit"
            press enter
            exit 0

            """)
        let replay = try await runHarness(["run", "recorded"], in: fixture.folder)
        #expect(replay.lastLine == "1 passed, 0 failed")
    }

    @Test func ctrlRightBracketStopsTheRecordingWithKill() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try FileManager.default.createDirectory(atPath: fixture.folder + "/recorded", withIntermediateDirectories: true)
        let session = try recordSession(["cat"], in: fixture)
        defer { session.terminate() }
        try await session.waitFor(text: "Ctrl-] stops")
        try session.type("abc")
        try session.press(.enter)
        try await session.waitFor(regex: "abc\\s+abc")
        try session.press(.up)
        try await session.waitFor(text: "^[[A")  // cat's terminal echoes the key
        try session.send([0x1D])
        #expect(try await session.waitForExit() == .exited(0))
        let flow = try String(contentsOfFile: fixture.folder + "/recorded/bc.flow", encoding: .utf8)
        #expect(flow.hasSuffix("""
            launch
            type "abc"
            press enter up
            expect-output "^[[A"
            kill

            """))
    }

    @Test func programPathsBecomeRelativeToTheFlow() {
        #expect(RecordCommand.relativePath("/a/b/tool", from: "/a/b") == "./tool")
        #expect(RecordCommand.relativePath("/a/b/tool", from: "/a/c/d") == "../../b/tool")
        #expect(RecordCommand.relativePath("/a/b/bin/tool", from: "/a/b") == "bin/tool")
    }
}
