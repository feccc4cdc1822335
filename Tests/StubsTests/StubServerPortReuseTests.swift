import Foundation
import Testing
import Stubs
import HarnessSystem

/// `stop()` frees the port for good before it returns, also while other threads of the process
/// spawn programs: a child forked just before the listener was closed holds a copy of it until
/// it closes its descriptors on the way to exec, and a port bound again in that window is "in
/// use". `stop()` waits for such children (`Posix.waitForSpawnsInFlight()`).
@Suite struct StubServerPortReuseTests {
    /// Spawns `/bin/true` over and over on a thread of its own until stopped, or until a spawn
    /// fails (the error is kept for the test to report; a crash would lose the whole run).
    final class Spawner: Sendable {
        private struct State {
            var stopped = false
            var finished = false
            var spawned = 0
            var failure: String?
        }

        private let state = Locked(State())

        func start() {
            Thread { [state] in
                defer { state.withLockNotifying { $0.finished = true } }
                do {
                    let null = try Posix.openForReading("/dev/null")
                    defer { Posix.closeIgnoringErrors(null) }
                    while !state.withLock({ $0.stopped }) {
                        let pid = try Posix.spawnWithPipes(
                            path: "/bin/true", arguments: ["true"], environment: [], workingDirectory: nil,
                            standardInput: null, standardOutput: null, standardError: null)
                        _ = try Posix.waitForTermination(pid)
                        state.withLockNotifying { $0.spawned += 1 }
                    }
                } catch {
                    state.withLock { $0.failure = "spawning /bin/true failed: \(error)" }
                }
            }.start()
        }

        /// Returns once the thread spawned its first program (or stopped early): the rounds then
        /// run while it spawns, however late the scheduler started it.
        func waitUntilSpawning() {
            state.wait(until: { $0.spawned > 0 || $0.finished })
        }

        /// Stops the thread and returns how many programs it spawned and why it stopped early,
        /// if it did.
        func stop() -> (spawned: Int, failure: String?) {
            state.withLock { $0.stopped = true }
            state.wait(until: { $0.finished })
            return state.withLock { ($0.spawned, $0.failure) }
        }
    }

    @Test func thePortCanBeBoundAgainAsSoonAsStopReturnsWhileOtherThreadsSpawn() throws {
        let spawners = [Spawner(), Spawner()]
        for spawner in spawners { spawner.start() }
        for spawner in spawners { spawner.waitUntilSpawning() }
        var running = true
        defer { if running { for spawner in spawners { _ = spawner.stop() } } }
        var server = try StubServerURLSessionTests.serverBelowTheEphemeralPorts()
        let port = server.port
        for round in 0..<100 {
            server.stop()
            do {
                server = try StubServer(port: port)
            } catch {
                Issue.record("round \(round): \(error)")
                return
            }
        }
        server.stop()
        running = false
        for (spawned, failure) in spawners.map({ $0.stop() }) {
            if let failure { Issue.record(Comment(rawValue: failure)) }
            #expect(spawned > 0)
        }
    }
}
