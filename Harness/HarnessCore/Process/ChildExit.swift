import HarnessSystem

/// The exit of a session's child as the event loop reports it: the loop reaps the child
/// (`EventLoop.watchExit`, a pidfd) and runs, on the loop, every handler registered so far,
/// in order: the core's own first (it records the status), then a teardown's.
final class ChildExit: Sendable {
    private struct State {
        var status: ExitStatus?
        var reapedAt: UInt64 = 0
        var handlers: [@Sendable (ExitStatus) -> Void] = []
    }

    private let state = Locked(State())

    init() {}

    /// Asks the loop to reap `pid` and then run the handlers (the core registers its own
    /// first, with ``whenReaped(_:)``). The loop holds them, and what they hold, until then.
    func watch(_ pid: Int32) {
        EventLoop.shared.watchExit(of: pid) { [self] status in reaped(ExitStatus(status)) }
    }

    /// Whether the loop reaped the child. Reaping happens on the loop, so there this answer
    /// holds until the current handler returns.
    var isReaped: Bool { state.withLock { $0.status != nil } }

    /// When the loop reaped the child, in ``Posix/bootClockTicks()`` (0 before): a process of
    /// its group that started later is not one of its own (the group's number may have been
    /// given to another program once the group was gone).
    var reapedAt: UInt64 { state.withLock { $0.reapedAt } }

    /// The status, once reaped.
    var status: ExitStatus? { state.withLock { $0.status } }

    /// Runs `handler` on the loop once the child was reaped; at once (on the caller) if it was.
    func whenReaped(_ handler: @escaping @Sendable (ExitStatus) -> Void) {
        let status = state.withLock { state -> ExitStatus? in
            if state.status == nil { state.handlers.append(handler) }
            return state.status
        }
        if let status { handler(status) }
    }

    private func reaped(_ status: ExitStatus) {
        let now = Posix.bootClockTicks()
        let handlers = state.withLock { state in
            state.status = status
            state.reapedAt = now
            defer { state.handlers = [] }
            return state.handlers
        }
        for handler in handlers { handler(status) }
    }
}
