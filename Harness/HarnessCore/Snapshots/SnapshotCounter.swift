import HarnessSystem

/// Numbers the unnamed snapshots of each test: 1, 2, 3... in the order they are asserted.
///
/// Keyed by the running Swift Testing test (when there is one), the file and the function, so
/// tests running in parallel do not share numbers.
final class SnapshotCounter: Sendable {
    static let shared = SnapshotCounter()

    private let counts = Locked<[String: Int]>([:])

    /// The next number for `key`, starting at 1.
    func next(for key: String) -> Int {
        counts.withLock { counts in
            let next = (counts[key] ?? 0) + 1
            counts[key] = next
            return next
        }
    }
}
