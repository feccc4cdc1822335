import Foundation

/// Runs a blocking body (a blocking socket call, a synchronous handshake) on its own
/// thread, so it never ties up one of the few threads of Swift's cooperative pool.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try body() })
        }
        thread.start()
    }
}
