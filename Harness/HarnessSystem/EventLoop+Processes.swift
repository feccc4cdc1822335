// Child exits as loop events: a pidfd (Linux 5.3+) becomes readable when the child exits and
// the loop reaps it then. Where pidfds are missing, the loop looks with `waitpid(WNOHANG)` on a
// timer that backs off from 1 to 20 ms: no thread blocks in `waitpid` for a child.

import CHarnessSystem

extension EventLoop {
    /// Reaps `pid` on the loop when it exits and calls `handler` there with how it ended. A
    /// child reaped by someone else (ECHILD) reports `.exited(-1)`: its status is lost.
    package func watchExit(of pid: Int32, _ handler: @escaping @Sendable (Posix.WaitStatus) -> Void) {
        let pidfd = harness_pidfd_open(pid)
        guard pidfd >= 0 else {
            pollExit(of: pid, after: .milliseconds(1), handler)
            return
        }
        let box = Locked<Watch?>(nil)
        let watch = watch(pidfd, for: .readable) { [self] _ in
            guard let watch = box.withLock({ $0 }), let status = Posix.reapIfExited(pid) else { return }
            unwatch(watch, closing: true)
            handler(status)
        }
        box.withLock { $0 = watch }
    }

    private func pollExit(of pid: Int32, after delay: Duration, _ handler: @escaping @Sendable (Posix.WaitStatus) -> Void) {
        schedule(after: delay) { [self] in
            if let status = Posix.reapIfExited(pid) {
                handler(status)
            } else {
                pollExit(of: pid, after: min(delay * 2, .milliseconds(20)), handler)
            }
        }
    }

    /// Calls `handler` on the loop once every process of `pids` has exited (they are not our
    /// children: the members a process group left behind), or when `timeout` passed, with
    /// whether they all did. Processes already gone count as exited.
    package func whenExited(_ pids: [Int32], timeout: Duration, _ handler: @escaping @Sendable (Bool) -> Void) {
        // Everything below runs on the loop; the box only carries the state between handlers.
        struct Progress { var pending: [Int32: Watch] = [:]; var timer: Timer?; var done = false }
        let progress = Locked(Progress())
        let finish: @Sendable (Bool) -> Void = { [self] allExited in
            let state = progress.withLock { state -> Progress? in
                guard !state.done else { return nil }
                state.done = true
                return state
            }
            guard let state else { return }
            for watch in state.pending.values { unwatch(watch, closing: true) }
            if let timer = state.timer { cancel(timer) }
            handler(allExited)
        }
        onLoop { [self] in
            for pid in pids {
                let fd = harness_pidfd_open(pid)
                guard fd >= 0 else { continue }  // ESRCH: gone already
                let watch = watch(fd, for: .readable) { [self] _ in
                    let (watch, last) = progress.withLock { state -> (Watch?, Bool) in
                        let watch = state.pending.removeValue(forKey: fd)
                        return (watch, state.pending.isEmpty)
                    }
                    guard let watch else { return }
                    unwatch(watch, closing: true)
                    if last { finish(true) }
                }
                progress.withLock { $0.pending[fd] = watch }
            }
            if progress.withLock({ $0.pending.isEmpty }) { return finish(true) }
            let timer = schedule(after: timeout) { finish(false) }
            progress.withLock { $0.timer = timer }
        }
    }
}
