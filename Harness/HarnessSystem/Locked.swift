// The one lock of the package: a pthread mutex (and its condition variable) around the state it
// guards. ThreadSanitizer models pthread mutexes, so a TSan run sees every acquire and release
// (it does not see `Synchronization.Mutex` on Linux: its futex calls are invisible to it, and
// two threads each holding a `Mutex` were reported as racing). Measured against `Mutex` by
// Benchmarks/LockBenchmark: see docs/PERFORMANCE.md.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value only reached while holding its lock: the state of one owner (a session, a table, a
/// server), taken with ``withLock(_:)``; a thread that must block until the state changes
/// (a teardown waiting for its child) waits with ``wait(until:deadline:)`` and whoever changes
/// it calls ``withLockNotifying(_:)``.
///
/// ```swift
/// let jobs = Locked<[Job]>([])
/// jobs.withLockNotifying { $0.append(job) }
/// jobs.wait { !$0.isEmpty }
/// ```
///
/// The rules (docs/ARCHITECTURE.md, "Threads and locks"): a body never takes another lock (nor
/// calls code that does), never blocks and never resumes a continuation.
package final class Locked<State>: @unchecked Sendable {
    // @unchecked: `state` is read and written only between `pthread_mutex_lock` and
    // `pthread_mutex_unlock` of `mutex` (every access below), which is what makes it safe to
    // share; the mutex and condition live at fixed heap addresses for the object's life.
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline let condition: UnsafeMutablePointer<pthread_cond_t>
    /// The state, at a fixed address: reached through the pointer, its accesses carry no
    /// dynamic exclusivity check (the lock is what makes them exclusive).
    @usableFromInline let state: UnsafeMutablePointer<State>

    package init(_ initial: State) {
        state = .allocate(capacity: 1)
        state.initialize(to: initial)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        #if canImport(Glibc)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        // Deadlines are `MonotonicClock` readings: the condition waits on the same clock.
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        precondition(pthread_cond_init(condition, &attributes) == 0, "pthread_cond_init failed")
        pthread_condattr_destroy(&attributes)
        #else
        precondition(pthread_cond_init(condition, nil) == 0, "pthread_cond_init failed")
        #endif
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
        pthread_cond_destroy(condition)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the state, holding the lock.
    @inlinable
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state.pointee)
    }

    /// ``withLock(_:)``, then wakes every thread blocked in ``wait(until:deadline:)``.
    @inlinable
    package func withLockNotifying<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        return try body(&state.pointee)
    }

    /// Blocks until `done` holds (checked under the lock, again after each notification) or the
    /// `MonotonicClock` reading `deadline` passed (nil: no limit); returns whether it holds.
    /// Only for threads that may block (never the event loop, never a task of the cooperative
    /// pool).
    @discardableResult
    package func wait(until done: (inout State) -> Bool, deadline: UInt64? = nil) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !done(&state.pointee) {
            guard let deadline else {
                pthread_cond_wait(condition, mutex)
                continue
            }
            if MonotonicClock.nanoseconds() >= deadline { return false }
            var time = Locked.timespec(at: deadline)
            _ = pthread_cond_timedwait(condition, mutex, &time)
        }
        return true
    }

    /// The absolute time `pthread_cond_timedwait` takes for a `MonotonicClock` reading (on
    /// Darwin, whose conditions wait on the wall clock, the same distance from now).
    private static func timespec(at deadline: UInt64) -> timespec {
        #if canImport(Glibc)
        let nanoseconds = deadline
        #else
        var now = timeval()
        gettimeofday(&now, nil)
        let remaining = deadline &- min(deadline, MonotonicClock.nanoseconds())
        let nanoseconds = UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_usec) * 1000 + remaining
        #endif
        return Glibc_or_Darwin_timespec(
            tv_sec: .init(nanoseconds / 1_000_000_000), tv_nsec: .init(nanoseconds % 1_000_000_000))
    }
}

#if canImport(Glibc)
private typealias Glibc_or_Darwin_timespec = Glibc.timespec
#else
private typealias Glibc_or_Darwin_timespec = Darwin.timespec
#endif

extension Locked where State == Void {
    /// A lock that guards no value of its own (a critical section, a serialised teardown).
    package convenience init() { self.init(()) }
}
