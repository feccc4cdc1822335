// The one thread of the package that may block in a system call: fork and exec (the parent
// waits until the child has executed), so that neither the event loop nor Swift's cooperative
// pool (one thread per core, shared by every test running in parallel) ever waits on them.

import Foundation

/// A thread running blocking jobs one after the other, in the order they were submitted.
///
/// ```swift
/// let pid = try await BlockingWorker.shared.run { try Posix.spawnWithPipes(...) }
/// ```
package final class BlockingWorker: Sendable {
    /// The worker of this process, started on first use.
    package static let shared = BlockingWorker(name: "harness.worker")

    private let jobs = Locked<[@Sendable () -> Void]>([])
    private let identity = Locked<ThreadIdentity?>(nil)

    /// Starts the thread; it runs for the life of the process (a program spawned with a
    /// parent-death signal dies when the thread that spawned it ends, so this one never does).
    package init(name: String) {
        let thread = Thread { [jobs, identity] in
            // Named from inside: the kernel's name of the thread (ps, gdb, /proc) is set then.
            Thread.current.name = name
            identity.withLockNotifying { $0 = .current }
            while true {
                var next: [@Sendable () -> Void] = []
                jobs.wait(until: { !$0.isEmpty })
                jobs.withLock { swap(&next, &$0) }
                for job in next { job() }
            }
        }
        thread.name = name
        thread.stackSize = 512 << 10
        thread.start()
    }

    /// Queues `job`; it runs on the worker after the jobs queued before it.
    package func submit(_ job: @escaping @Sendable () -> Void) {
        jobs.withLockNotifying { $0.append(job) }
    }

    /// Runs `body` on the worker and returns its result, blocking the caller until then (at once
    /// when called on the worker itself). Only for callers that may block.
    package func runAndWait<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        _ = identity.wait(until: { $0 != nil })
        if identity.withLock({ $0!.isCurrent }) { return body() }
        let result = Locked<T?>(nil)
        submit { result.withLockNotifying { $0 = body() } }
        _ = result.wait(until: { $0 != nil })
        return result.withLock { $0! }
    }

    /// Runs `body` on the worker and returns its result (or error) to the awaiting task.
    ///
    /// The result is handed over through a lock, and the continuation only says it is there: a
    /// continuation resumed before its task suspended passes its value by an atomic inside the
    /// concurrency runtime, which ThreadSanitizer does not see, so what `body` wrote (a session
    /// it built) was reported as raced with the task that read it.
    package func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        let handoff = Locked<Result<T, any Error>?>(nil)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            submit {
                let result = Result { try body() }
                handoff.withLock { $0 = result }
                continuation.resume()
            }
        }
        return try handoff.withLock { $0! }.get()
    }

    /// ``run(_:)`` for work that cannot fail.
    package func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        let handoff = Locked<T?>(nil)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            submit {
                let result = body()
                handoff.withLock { $0 = result }
                continuation.resume()
            }
        }
        return handoff.withLock { $0! }
    }
}
