import Foundation
import Synchronization

/// One timer for many timeouts: deadlines are kept in order and a single Dispatch
/// timer is armed for the earliest. Adding a deadline later than the armed one
/// (the usual case: equal timeouts, increasing start times) costs no timer call.
final class DeadlineScheduler: @unchecked Sendable {
    private struct Entry {
        let deadline: DispatchTime
        let action: @Sendable () -> Void
    }

    private struct State {
        var entries: [Entry] = []  // sorted by deadline
        var armed: DispatchTime?
    }

    private let state = Mutex(State())
    private let timer: any DispatchSourceTimer

    init() {
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global())
        timer.setEventHandler { [weak self] in self?.fire() }
        timer.activate()
    }

    deinit { timer.cancel() }

    /// Runs `action` once `deadline` has passed (on a Dispatch queue).
    func schedule(at deadline: DispatchTime, _ action: @escaping @Sendable () -> Void) {
        state.withLock { state in
            var index = state.entries.count
            while index > 0 && state.entries[index - 1].deadline > deadline { index -= 1 }
            state.entries.insert(Entry(deadline: deadline, action: action), at: index)
            if state.armed == nil || deadline < state.armed! { arm(&state, deadline) }
        }
    }

    /// Arms the timer for `deadline`; called with the state locked.
    private func arm(_ state: inout State, _ deadline: DispatchTime) {
        state.armed = deadline
        timer.schedule(deadline: deadline, repeating: .never, leeway: .milliseconds(1))
    }

    private func fire() {
        let now = DispatchTime.now()
        let due = state.withLock { state in
            let count = state.entries.prefix { $0.deadline <= now }.count
            let due = Array(state.entries.prefix(count))
            state.entries.removeFirst(count)
            state.armed = nil
            if let next = state.entries.first { arm(&state, next.deadline) }
            return due
        }
        for entry in due { entry.action() }
    }
}
