// Which thread is running, for loops that must know whether a caller is their own thread
// (a task executor running jobs inline, a stop request from the loop itself).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The identity of a thread (`pthread_self`), cheap to take and compare.
package struct ThreadIdentity: Equatable {
    private let thread: pthread_t

    /// The calling thread.
    package static var current: ThreadIdentity { ThreadIdentity(thread: pthread_self()) }

    /// Whether the calling thread is this one.
    package var isCurrent: Bool { pthread_equal(thread, pthread_self()) != 0 }

    package static func == (lhs: ThreadIdentity, rhs: ThreadIdentity) -> Bool {
        pthread_equal(lhs.thread, rhs.thread) != 0
    }
}

#if canImport(Darwin)
// @unchecked: Darwin's `pthread_t` is a pointer, so not `Sendable`; it is only compared
// (`pthread_equal`), never dereferenced, and a thread's identity is valid on every thread.
extension ThreadIdentity: @unchecked Sendable {}
#else
extension ThreadIdentity: Sendable {}
#endif
