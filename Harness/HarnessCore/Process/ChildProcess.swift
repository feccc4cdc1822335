import HarnessSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What both session cores do with the child they launched: learn of its exit from the event
/// loop (``ChildExit``), and end its whole process group, event driven on the loop.
enum ChildProcess {
    /// Ends the process group that `pid` leads: sends `signals` (and SIGCONT: a stopped
    /// program must run to die) to the group, and to `pid` itself with `signalLeaderToo` (in
    /// case it left its group), unless it was reaped already; gives it `grace` (a loop timer) to
    /// be reaped, then SIGKILL. Whatever is left of the group (background jobs of a shell that
    /// exited) gets SIGKILL too, and `done` runs on the loop once those processes are gone
    /// (pidfds; at most 2 s) and the child was reaped.
    ///
    /// Every step runs on the event loop, where the child is reaped: a signal is only sent to
    /// `pid` while it is not reaped, so never to a process that reused its id. Nothing blocks.
    static func endProcessGroup(
        of pid: Int32, signals: [Int32], signalLeaderToo: Bool, grace: Duration, exit: ChildExit,
        then done: @escaping @Sendable () -> Void
    ) {
        let loop = EventLoop.shared
        loop.execute {
            guard !exit.isReaped else { return endLeftovers(of: pid, then: done) }
            let targets = signalLeaderToo ? [-pid, pid] : [-pid]
            for target in targets {
                for signal in signals + [SIGCONT] { _ = try? Posix.kill(target, signal) }
            }
            let graceTimer = loop.schedule(after: grace) {
                // On the loop, like the reaping: not reaped yet means the pid is still ours.
                guard !exit.isReaped else { return }
                for target in targets { _ = try? Posix.kill(target, SIGKILL) }
            }
            exit.whenReaped { _ in
                loop.cancel(graceTimer)
                endLeftovers(of: pid, then: done)
            }
        }
    }

    /// After the leader was reaped: SIGKILL to what is left of its group, and `done` once
    /// those processes exited (or 2 s passed). On the loop.
    private static func endLeftovers(of pid: Int32, then done: @escaping @Sendable () -> Void) {
        _ = try? Posix.killProcessGroup(pid, SIGKILL)
        // Scanning /proc costs about a millisecond: only when the group still has members.
        let remaining = Posix.exists(-pid) ? Posix.livingMembers(ofProcessGroup: pid).filter { $0 != pid } : []
        guard !remaining.isEmpty else { return done() }
        _ = try? Posix.killProcessGroup(pid, SIGKILL)
        EventLoop.shared.whenExited(remaining, timeout: .seconds(2)) { _ in done() }
    }
}
