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
    /// exited) gets SIGKILL too, and so do the descendants that left the group and were
    /// adopted by the harness (``endAdopted(marker:then:)``); `done` runs on the loop once those
    /// processes are gone (pidfds; at most 2 s each round) and the child was reaped.
    ///
    /// Every step runs on the event loop, where the child is reaped: a signal is only sent to
    /// `pid` while it is not reaped, so never to a process that reused its id. Nothing blocks.
    static func endProcessGroup(
        of pid: Int32, signals: [Int32], signalLeaderToo: Bool, grace: Duration, exit: ChildExit,
        then done: @escaping @Sendable () -> Void
    ) {
        let loop = EventLoop.shared
        let marker = Descendants.takeMarker(of: pid)
        let finish: @Sendable () -> Void = { endAdopted(marker: marker, then: done) }
        loop.execute {
            guard !exit.isReaped else { return endLeftovers(of: pid, reapedAt: exit.reapedAt, then: finish) }
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
                endLeftovers(of: pid, reapedAt: exit.reapedAt, then: finish)
            }
        }
    }

    /// After the leader was reaped: SIGKILL to what is left of its group, and `done` once
    /// those processes exited (or 2 s passed). On the loop.
    ///
    /// The group's number is only the group's while one of its processes lives: once all are
    /// gone, the kernel may give it to a new program, which (a session leader, as every program
    /// the harness starts) would lead a group of that number. A teardown long after the child
    /// was reaped (a session kept open after its program ended) must not kill that stranger: the
    /// group is killed only while a process that started before the reap (`reapedAt`) is in it.
    /// (Seen once in a ThreadSanitizer run, where pids wrap around every few seconds: a hanging
    /// program of another test was killed.)
    private static func endLeftovers(of pid: Int32, reapedAt: UInt64, then done: @escaping @Sendable () -> Void) {
        // Scanning /proc costs about a millisecond: only when the group still has members.
        guard Posix.exists(-pid) else { return done() }
        #if os(Linux)
        let ours = Posix.livingMembers(ofProcessGroup: pid, startedBy: reapedAt)
        guard !ours.isEmpty else { return done() }
        #endif
        _ = try? Posix.killProcessGroup(pid, SIGKILL)
        let remaining = Posix.livingMembers(ofProcessGroup: pid).filter { $0 != pid }
        guard !remaining.isEmpty else { return done() }
        _ = try? Posix.killProcessGroup(pid, SIGKILL)
        EventLoop.shared.whenExited(remaining, timeout: .seconds(2)) { _ in done() }
    }

    /// SIGKILL to the children of the harness that descend from the session `marker` names
    /// (daemons that left its process group, reparented to the harness as a child subreaper),
    /// awaited and reaped; again for their own children, which are reparented in turn, until
    /// none is left (at most 8 rounds). Then reaps the exited children nobody watches (members
    /// of the group that outlived its leader). `done` runs on the loop. Without a marker (the
    /// process is not a subreaper) only `done`.
    static func endAdopted(marker: String?, round: Int = 0, then done: @escaping @Sendable () -> Void) {
        guard let marker else { return done() }
        EventLoop.shared.execute {
            Descendants.reapAdoptedZombies()
            let adopted = round < 8 ? Descendants.adopted(marker: marker) : []
            guard !adopted.isEmpty else { return done() }
            // Children of ours, not reaped: their pids cannot name another process.
            for pid in adopted { _ = try? Posix.kill(pid, SIGKILL) }
            let left = Locked(adopted.count)
            for pid in adopted {
                EventLoop.shared.watchExit(of: pid) { _ in
                    let last = left.withLock { count -> Bool in
                        count -= 1
                        return count == 0
                    }
                    if last { endAdopted(marker: marker, round: round + 1, then: done) }
                }
            }
        }
    }
}
