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
        #expect(failed.message.contains("does not match its reference (the screen had settled"), "\(failed.message)")
        let reference = fixture.folder + "/__Snapshots__/t/t.s.txt"
        #expect(failed.message.contains("harness snapshots accept --run \(artifacts) \(reference)"), "\(failed.message)")
        #expect(!failed.message.contains("HARNESS_RECORD"), "\(failed.message)")
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
