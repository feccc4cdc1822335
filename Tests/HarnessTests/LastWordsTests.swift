import Foundation
import Testing
@testable import Harness
import TerminalEmulator
import HarnessSystem

/// A program's last words: whatever it printed before it exited, aborted or was killed is read
/// and parsed before its exit is reported, so the screen, the output and a failure message all
/// show them. Each ending is tried 200 times in a row (the race it guards against is rare).
@Suite struct LastWordsTests {
    /// How the program ends after printing: each a shell command run after the output.
    static let endings: [(name: String, command: String, status: Harness.ExitStatus)] = [
        ("exits", "exit 3", .exited(3)),
        ("aborts", "kill -ABRT $$", .signaled(SIGABRT)),
        ("is killed", "kill -KILL $$", .signaled(SIGKILL)),
    ]

    @Test(arguments: endings)
    func whatWasPrintedBeforeTheEndIsOnTheScreenWhenTheExitIsReported(
        name: String, command: String, status: Harness.ExitStatus
    ) async throws {
        for round in 1...200 {
            // 500 lines before the last words, so they arrive in the last of many reads.
            let script = "seq 1 500; printf 'last words \(round)'; \(command)"
            // Launched on the blocking worker and ended awaited (on the event loop): 600 forks
            // and teardowns on Swift's cooperative pool would starve the tests running beside
            // this one on a loaded machine.
            let configuration = shell(script)
            let session = try await BlockingWorker.shared.run { try TerminalSession.launch(configuration) }
            let exit: Harness.ExitStatus
            do {
                exit = try await session.waitForExit()
            } catch {
                await session.terminated()
                throw error
            }
            let screen = session.screen
            let output = session.output
            await session.terminated()
            #expect(exit == status, "round \(round)")
            guard screen.line(screen.cursor.row).hasPrefix("last words \(round)") else {
                Issue.record("round \(round): the program \(name) and its last words are missing:\n\(screen)")
                return
            }
            #expect(output.hasSuffix("500\nlast words \(round)"), "round \(round)")
        }
    }

    /// A background job that writes after the program was reaped (it ignores the SIGHUP the
    /// program's exit sends its group, as it inherits the program's disposition, and waits until the program's process is gone: `kill -0`
    /// still reaches a zombie) is read before the exit is reported:
    /// the screen handed to the exit's handlers shows it. The lingering grace is made long, so
    /// that only the end of the terminal can report the exit.
    @Test func aBackgroundJobsWordsAfterTheReapAreReadBeforeTheExitIsReported() async throws {
        var configuration = shell("""
            echo first; parent=$$; trap '' HUP; (while kill -0 $parent 2>/dev/null; do :; done; echo after the reap) & exit 4
            """)
        configuration.lingeringTerminalGrace = .seconds(3600)
        let session = try TerminalSession.launch(configuration)
        let atExit = Locked<String?>(nil)
        session.onExit { _ in atExit.withLock { $0 = session.screen.text } }
        let status = try await session.waitForExit()
        await session.terminated()
        #expect(status == .exited(4))
        let screen = try #require(atExit.withLock { $0 })
        #expect(screen.contains("first") && screen.contains("after the reap"), "\(screen)")
    }
}
