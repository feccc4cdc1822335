import Foundation

/// Runs blocking work (a fork and exec, waiting for a process group to die) on a thread of its
/// own and awaits it.
///
/// Swift's cooperative pool has one thread per core: two cores, two threads, shared by every
/// test that runs in parallel. A test blocked in a system call there holds one of them; under
/// load, a few of those at once left other tests' tasks (a URLSession request, a bridge
/// handler) waiting longer than their timeouts. Launch and teardown go through here instead.
package func runOffPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.stackSize = 512 << 10
        thread.start()
    }
}

/// ``runOffPool(_:)`` for work that cannot fail.
package func runOffPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.stackSize = 512 << 10
        thread.start()
    }
}
