import Foundation

/// One timer for many timeouts: deadlines are kept in order and a single Dispatch
/// timer is armed for the earliest. Adding a deadline later than the armed one
/// (the usual case: equal timeouts, increasing start times) costs no timer call.
final class DeadlineScheduler: @unchecked Sendable {
    private struct Entry {
        let deadline: DispatchTime
        let action: @Sendable () -> Void
    }

    private let lock = NSLock()
    private var entries: [Entry] = []  // sorted by deadline
    private var armed: DispatchTime?
    private let timer: any DispatchSourceTimer

    init() {
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global())
        timer.setEventHandler { [weak self] in self?.fire() }
        timer.activate()
    }

    deinit { timer.cancel() }

    /// Runs `action` once `deadline` has passed (on a Dispatch queue).
    func schedule(at deadline: DispatchTime, _ action: @escaping @Sendable () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        var index = entries.count
        while index > 0 && entries[index - 1].deadline > deadline { index -= 1 }
        entries.insert(Entry(deadline: deadline, action: action), at: index)
        if armed == nil || deadline < armed! { armLocked(deadline) }
    }

    private func armLocked(_ deadline: DispatchTime) {
        armed = deadline
        timer.schedule(deadline: deadline, repeating: .never, leeway: .milliseconds(1))
    }

    private func fire() {
        let now = DispatchTime.now()
        let due = lock.withLock { () -> [Entry] in
            let count = entries.prefix { $0.deadline <= now }.count
            let due = Array(entries.prefix(count))
            entries.removeFirst(count)
            armed = nil
            if let next = entries.first { armLocked(next.deadline) }
            return due
        }
        for entry in due { entry.action() }
    }
}
