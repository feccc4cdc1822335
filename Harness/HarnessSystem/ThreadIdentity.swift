// Which thread is running, for loops that must know whether a caller is their own thread
// (a task executor running jobs inline, a stop request from the loop itself).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The identity of a thread (`pthread_self`), cheap to take and compare.
package struct ThreadIdentity: @unchecked Sendable, Equatable {
    private let thread: pthread_t

    /// The calling thread.
    package static var current: ThreadIdentity { ThreadIdentity(thread: pthread_self()) }

    /// Whether the calling thread is this one.
    package var isCurrent: Bool { pthread_equal(thread, pthread_self()) != 0 }

    package static func == (lhs: ThreadIdentity, rhs: ThreadIdentity) -> Bool {
        pthread_equal(lhs.thread, rhs.thread) != 0
    }
}
