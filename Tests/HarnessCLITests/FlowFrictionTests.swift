import Foundation
import Testing
import Harness
@testable import HarnessFlows

/// What a newcomer met: a differing snapshot that waited the whole timeout and gave three
/// different accept commands, and a full-screen program whose last frame was lost on exit.
@Suite struct FlowFrictionTests {
    /// The step's timeout is far longer than the test: only the settled screen ends the wait.
    @Test func aDifferingSnapshotFailsOnceTheScreenSettledWithTheAcceptCommand() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try fixture.write("not this screen\n", at: "__Snapshots__/t/t.s.txt")
        let artifacts = fixture.folder + "/artifacts"
        let outcome = try await fixture.run("""
            app sh -c "echo hello; exec cat"
            timeout 600s
            launch
            expect "hello"
            snapshot s
            """, options: testOptions(artifacts: artifacts))
        let failed = try #require(failure(of: outcome))
        #expect(failed.position?.line == 5)
        #expect(failed.message.contains("does not match its reference (the screen had settled: no stub answer pending, "
                                         + "the program's processes asleep, nothing written for 500ms)"), "\(failed.message)")
        let reference = fixture.folder + "/__Snapshots__/t/t.s.txt"
        #expect(failed.message.contains("harness snapshots accept --run \(artifacts) \(reference)"), "\(failed.message)")
        #expect(!failed.message.contains("HARNESS_RECORD"), "\(failed.message)")
    }

    /// The todo app shows "Loading…" while the stub delays its answer by 2 s, writing nothing:
    /// the screen is quiet but has not settled (an answer is pending), so the snapshot of the
    /// loaded list waits for it and passes.
    @Test func aSnapshotWaitsForADelayedStubAnswerBeforeCallingTheScreenSettled() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let flows = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../Flows").standardized.path
        try fixture.write(try String(contentsOfFile: flows + "/fixtures/todos.json", encoding: .utf8), at: "todos.json")
        try fixture.write(try String(contentsOfFile: flows + "/__Snapshots__/loaded/loaded.loaded.txt", encoding: .utf8),
                          at: "__Snapshots__/t/t.loaded.txt")
        let outcome = try await fixture.run("""
            app ${HARNESS_PRODUCTS_DIR}/todo
            size 80x24
            clock 2023-11-14T22:13:20Z
            stub GET /todos 200 json todos.json delay 2s
            set api.timeout=86400
            launch
            expect "[ Start ]"
            press enter
            snapshot loaded
            press q
            exit 0
            """)
        #expect(outcome == .passed, "\(outcome)")
    }

    /// A program that computes without writing is quiet but not settled: a differing snapshot
    /// then fails at its timeout (a short one here), not saying the screen had settled.
    @Test func aProgramComputingSilentlyHasNotSettled() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try fixture.write("not this screen\n", at: "__Snapshots__/t/t.s.txt")
        let outcome = try await fixture.run("""
            app sh -c "echo computing; while :; do :; done"
            launch
            expect "computing"
            timeout 1500ms
            snapshot s
            """)
        let failed = try #require(failure(of: outcome))
        #expect(failed.position?.line == 5)
        #expect(failed.message.contains("does not match its reference"), "\(failed.message)")
        #expect(!failed.message.contains("had settled"), "\(failed.message)")
    }

    @Test func aProgramThatLeftItsFullScreenAndExitedShowsItsLastFrame() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outcome = try await fixture.run(#"""
            app sh -c "printf '\e[?1049h\e[HFULL SCREEN FRAME'; read x; printf '\e[?1049l'"
            launch
            expect "FULL SCREEN FRAME"
            press enter
            expect "never shown"
            """#)
        let failed = try #require(failure(of: outcome))
        #expect(failed.position?.line == 5)
        let lines = failed.message.split(separator: "\n").map(String.init)
        let heading = try #require(lines.firstIndex { $0.hasPrefix("The program's last full-screen frame") }, "\(failed.message)")
        #expect(lines[(heading + 1)...].contains { $0.hasPrefix("│FULL SCREEN FRAME") }, "\(failed.message)")
    }
}
