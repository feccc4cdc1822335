import Foundation

/// The number of open client connections, readable from any thread and awaitable with a
/// condition variable (no polling).
final class ConnectionGauge: @unchecked Sendable {
    private let condition = NSCondition()
    private var count = 0

    /// The current count.
    var value: Int {
        condition.lock()
        defer { condition.unlock() }
        return count
    }

    /// Adds `delta` and wakes waiters.
    func add(_ delta: Int) {
        condition.lock()
        count += delta
        condition.broadcast()
        condition.unlock()
    }

    /// Blocks until the count satisfies `predicate` or `timeout` passes; returns whether it did.
    func wait(timeout: TimeInterval, until predicate: (Int) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(count) {
            if !condition.wait(until: deadline) { return predicate(count) }
        }
        return true
    }
}
