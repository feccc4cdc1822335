import Foundation

/// Runs a blocking body (a blocking socket call, a synchronous handshake, a wait for a
/// subprocess) on its own thread, so it never ties up one of the few threads of Swift's
/// cooperative pool, which every other test of the process shares.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try body() })
        }
        thread.start()
    }
}
