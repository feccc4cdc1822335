import HarnessSystem

/// How many requests a server received and has not answered in full yet: counted from the
/// moment a request is complete until the last byte of its answer is sent (a `delay` counts
/// all along) or its connection closes. A hang does not count: nothing will answer it. Readable
/// from any thread, and awaitable without polling (what a flow's snapshot waits on before it
/// calls the screen settled).
final class PendingAnswers: Sendable {
    private struct State {
        var count = 0
        var nextWaiter: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Locked(State())

    /// The current count.
    var value: Int { state.withLock { $0.count } }

    /// Adds `delta`; at zero, resumes every wait.
    func add(_ delta: Int) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.count += delta
            guard state.count == 0 else { return [] }
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in ready { waiter.resume() }
    }

    /// Returns once no answer is pending (at once when none is), or when the task is cancelled.
    func waitUntilNone() async {
        let id = state.withLock { state -> UInt64 in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.count == 0 || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
