import Foundation
import HarnessSystem

/// The number of open client connections, readable from any thread and awaitable (a blocking
/// wait on the lock's condition, no polling).
final class ConnectionGauge: Sendable {
    private let count = Locked(0)

    /// The current count.
    var value: Int { count.withLock { $0 } }

    /// Adds `delta` and wakes waiters.
    func add(_ delta: Int) {
        count.withLockNotifying { $0 += delta }
    }

    /// Blocks until the count satisfies `predicate` or `timeout` passes; returns whether it did.
    /// Only for threads that may block (never the event loop).
    func wait(timeout: TimeInterval, until predicate: (Int) -> Bool) -> Bool {
        count.wait(until: { predicate($0) }, deadline: MonotonicClock.deadline(after: .seconds(timeout)))
    }
}
