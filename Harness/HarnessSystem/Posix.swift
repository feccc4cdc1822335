// HarnessSystem: the one place on the harness side (session driver, bridge wire, stub server)
// that talks to libc. Other modules call `Posix` and never import Glibc or Darwin.
//
// One syscall policy, written once in this file (after swift-nio's `System.swift`):
// - EINTR is always retried (poll recomputes its remaining timeout first);
// - would-block (EAGAIN/EWOULDBLOCK) on a non-blocking descriptor is a value (`nil`), never
//   an error;
// - any other failure throws a `SystemError` with the errno saved right after the call;
// - every descriptor is created close-on-exec atomically (`pipe2`, `accept4`, `SOCK_CLOEXEC`,
//   `O_CLOEXEC`; on Darwin under the lock the C shim's fork also takes), so a program another
//   thread spawns never inherits it.
//
// The lock of the package is `Synchronization.Mutex`; the clock is `MonotonicClock`.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Thin throwing wrappers over the system calls of the harness, the bridge and the stub server,
/// grouped by concern in `Posix+<Concern>.swift`.
package enum Posix {
    // MARK: - The policy

    /// Runs `call` until it does not fail with EINTR; throws a `SystemError` named `operation`
    /// when it returns a negative value with any other errno.
    @inline(__always)
    @discardableResult
    package static func retrying<Result: BinaryInteger>(
        _ operation: @autoclosure () -> String, _ call: () -> Result
    ) throws(SystemError) -> Result {
        while true {
            let result = call()
            if result >= 0 { return result }
            let saved = errno
            if saved == EINTR { continue }
            throw SystemError(operation: operation(), errno: saved)
        }
    }

    /// Like ``retrying(_:_:)``, but a would-block failure (EAGAIN/EWOULDBLOCK) returns nil.
    @inline(__always)
    package static func retryingUnlessWouldBlock<Result: BinaryInteger>(
        _ operation: @autoclosure () -> String, _ call: () -> Result
    ) throws(SystemError) -> Result? {
        while true {
            let result = call()
            if result >= 0 { return result }
            let saved = errno
            if saved == EINTR { continue }
            if isWouldBlock(saved) { return nil }
            throw SystemError(operation: operation(), errno: saved)
        }
    }

    /// Whether `errno` means "try again when the descriptor is ready".
    package static func isWouldBlock(_ errno: Int32) -> Bool {
        errno == EAGAIN || errno == EWOULDBLOCK
    }

    // MARK: - Errno values callers test

    /// `EMFILE`: this process is out of descriptors.
    package static let tooManyFiles: Int32 = EMFILE
    /// `ENFILE`: the system is out of descriptors.
    package static let tooManyFilesInSystem: Int32 = ENFILE
}

// The libc functions whose names the wrappers shadow, for the other files of the module
// (at file scope, outside `Posix`, the plain names are still Glibc's or Darwin's).
let libcRead = read
let libcWrite = write
let libcClose = close
let libcPoll = poll
let libcKill = kill
let libcSend = send
let libcRecv = recv
let libcBind = bind
let libcListen = listen
let libcConnect = connect
let libcShutdown = shutdown
