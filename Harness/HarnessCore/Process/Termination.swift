import HarnessSystem

/// A core's teardown, started once and finished once: the first `terminate` starts it (on the
/// event loop), every call, also concurrent ones, gets its status. The async API awaits it;
/// the synchronous one blocks its caller (never the loop) until it finished.
final class Termination: Sendable {
    private struct State {
        var started = false
        var status: ExitStatus?
        var awaiting: [CheckedContinuation<ExitStatus, Never>] = []
    }

    private let state = Locked(State())

    /// True for the first call only: that caller starts the teardown, which calls ``finish(_:)``.
    func begin() -> Bool {
        state.withLock { state in
            defer { state.started = true }
            return !state.started
        }
    }

    /// The teardown is done: wakes the waiting callers and resumes the awaiting tasks.
    func finish(_ status: ExitStatus) {
        let awaiting = state.withLockNotifying { state -> [CheckedContinuation<ExitStatus, Never>] in
            guard state.status == nil else { return [] }
            state.status = status
            defer { state.awaiting = [] }
            return state.awaiting
        }
        for continuation in awaiting { continuation.resume(returning: status) }
    }

    /// The status, once the teardown finished.
    var status: ExitStatus? { state.withLock { $0.status } }

    /// Blocks the caller until the teardown finished. On the event loop (a handler of the
    /// loop, such as an `onOutput` or `onExit` callback, ending its own session) that would
    /// never return: it stops the process with a message naming `operation` instead, unless
    /// the teardown already finished.
    func wait(for operation: String) -> ExitStatus {
        if let status { return status }
        if EventLoop.shared.inLoop {
            preconditionFailure(
                "\(operation) was called on the harness's event loop (from an onOutput or onExit handler, or a "
                    + "wait's predicate), where it cannot wait for the teardown it started; call it from a task instead")
        }
        state.wait(until: { $0.status != nil })
        return state.withLock { $0.status! }
    }

    /// Suspends until the teardown finished.
    func value() async -> ExitStatus {
        await withCheckedContinuation { continuation in
            let status = state.withLock { state -> ExitStatus? in
                if state.status == nil { state.awaiting.append(continuation) }
                return state.status
            }
            if let status { continuation.resume(returning: status) }
        }
    }
}

/// A core whose teardown is a ``Termination``: `startTerminating` begins it (once) on the
/// loop; the waited and awaited forms below are the same for every such core.
protocol TerminatingCore: Sendable {
    /// The teardown's one start and finish.
    var termination: Termination { get }
    /// What a caller blocked on the loop was doing, for the message that stops the process.
    var terminateOperation: String { get }
    /// Starts the teardown once (later calls join it).
    func startTerminating(grace: Duration)
}

extension TerminatingCore {
    /// The teardown, waited for: blocks the caller (never the loop) until it is done.
    /// Idempotent: later calls return the first one's status.
    @discardableResult
    func terminate(grace: Duration) -> ExitStatus {
        startTerminating(grace: grace)
        return termination.wait(for: terminateOperation)
    }

    /// The teardown, awaited.
    @discardableResult
    func terminated(grace: Duration) async -> ExitStatus {
        startTerminating(grace: grace)
        return await termination.value()
    }
}
