import Foundation
import HarnessSystem

/// What both session cores do with the child they launched: a reaper thread that waits for
/// it, and the teardown of its whole process group.
enum ChildProcess {
    /// Starts a thread that waits for `pid` to end and passes its status to `reaped`.
    static func startReaper(of pid: Int32, name: String, reaped: @escaping @Sendable (ExitStatus) -> Void) {
        let reaper = Thread {
            let status: ExitStatus
            do {
                status = ExitStatus(try Posix.waitForTermination(pid))
            } catch {
                // ECHILD: someone else reaped our child; its status is lost.
                status = .exited(-1)
            }
            reaped(status)
        }
        reaper.name = name
        reaper.stackSize = 256 << 10
        reaper.start()
    }

    /// Ends the process group that `pid` leads: sends `signals` (and SIGCONT: a stopped
    /// program must run to die) to the group, and to `pid` itself with `signalLeaderToo` (in
    /// case it left its group), unless it was reaped already; gives it `grace` to be reaped,
    /// then SIGKILL. Whatever is left of the group (background jobs of a shell that exited)
    /// goes too, and this returns once those processes are gone (pidfds, event driven).
    ///
    /// - Parameter waitUntilReaped: waits until the child was reaped or the date passed (at
    ///   once for `distantPast`) and says whether it was.
    static func endProcessGroup(
        of pid: Int32, signals: [Int32], signalLeaderToo: Bool, grace: Duration,
        waitUntilReaped: (Date) -> Bool
    ) {
        let targets = signalLeaderToo ? [-pid, pid] : [-pid]
        if !waitUntilReaped(.distantPast) {
            for target in targets {
                for signal in signals + [SIGCONT] { _ = try? Posix.kill(target, signal) }
            }
            if !waitUntilReaped(Date(timeIntervalSinceNow: grace.seconds)) {
                for target in targets { _ = try? Posix.kill(target, SIGKILL) }
            }
        }
        _ = try? Posix.killProcessGroup(pid, SIGKILL)
        // Scanning /proc costs about a millisecond: only when the group still has members.
        let remaining = Posix.exists(-pid) ? Posix.livingMembers(ofProcessGroup: pid).filter { $0 != pid } : []
        if !remaining.isEmpty {
            _ = try? Posix.killProcessGroup(pid, SIGKILL)
            Posix.waitUntilExited(remaining, timeout: .seconds(2))
        }
    }
}

extension ChildProcess {
    /// The end of a core's teardown, after the child was ended: with `condition` locked, waits
    /// until the child was `reaped`, asks the core's I/O thread to stop (`requestStop`), waits
    /// until it and the reaper `finished`, then `close`s the descriptors, still locked: exactly
    /// once, after no thread uses them any more.
    static func stopThreads(
        _ condition: NSCondition, reaped: () -> Bool, requestStop: () -> Void, finished: () -> Bool,
        thenClose close: () -> Void
    ) {
        condition.lock()
        defer { condition.unlock() }
        while !reaped() { condition.wait() }
        requestStop()
        while !finished() { condition.wait() }
        close()
    }

    /// Serialises a core's `terminate`: the first call runs the teardown, later ones (also
    /// concurrent ones, which wait for it) return its status.
    final class TerminateOnce: @unchecked Sendable {
        private let lock = NSLock()
        private var status: ExitStatus?

        func run(_ teardown: () -> ExitStatus) -> ExitStatus {
            lock.lock()
            defer { lock.unlock() }
            if let status { return status }
            let ended = teardown()
            status = ended
            return ended
        }
    }
}

extension NSCondition {
    /// Locks, waits until `done` holds or `deadline` passes (at once for `distantPast`), and
    /// returns whether it holds.
    func wait(until deadline: Date, for done: () -> Bool) -> Bool {
        lock()
        defer { unlock() }
        while !done() {
            if !wait(until: deadline) { break }
        }
        return done()
    }
}
