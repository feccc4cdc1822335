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
    final class Spawner: @unchecked Sendable {
        private let lock = NSLock()
        private var stopped = false
        private var spawned = 0
        private var failure: String?
        private let done = DispatchSemaphore(value: 0)

        func start() {
            Thread {
                defer { self.done.signal() }
                do {
                    let null = try Posix.openForReading("/dev/null")
                    defer { Posix.closeIgnoringErrors(null) }
                    while !self.lock.withLock({ self.stopped }) {
                        let pid = try Posix.spawnWithPipes(
                            path: "/bin/true", arguments: ["true"], environment: [], workingDirectory: nil,
                            standardInput: null, standardOutput: null, standardError: null)
                        _ = try Posix.waitForTermination(pid)
                        self.lock.withLock { self.spawned += 1 }
                    }
                } catch {
                    self.lock.withLock { self.failure = "spawning /bin/true failed: \(error)" }
                }
            }.start()
        }

        /// Stops the thread and returns how many programs it spawned and why it stopped early,
        /// if it did. Call once.
        func stop() -> (spawned: Int, failure: String?) {
            lock.withLock { stopped = true }
            done.wait()
            return lock.withLock { (spawned, failure) }
        }
    }

    @Test func thePortCanBeBoundAgainAsSoonAsStopReturnsWhileOtherThreadsSpawn() throws {
        let spawners = [Spawner(), Spawner()]
        for spawner in spawners { spawner.start() }
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
