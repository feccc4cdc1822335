// The one error type of every system call the harness, the bridge and the stub server make.
// It is public (the only public declaration of HarnessSystem) because the products' public
// errors carry it: `TerminalSessionError.ioFailed`, `StubServerError.cannotListen`...

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call: the operation's name and the `errno` saved right after it failed.
///
/// ```swift
/// SystemError(operation: "read", errno: EIO).description
/// // "read failed: Input/output error (errno 5)"
/// ```
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The system call or step that failed, e.g. `"read"` or `"ioctl(TIOCSWINSZ)"`.
    public let operation: String
    /// The `errno` value saved right after the failure.
    public let errno: Int32

    /// Creates an error for `operation` failing with `errno`.
    public init(operation: String, errno: Int32) {
        self.operation = operation
        self.errno = errno
    }

    /// The system's message for the errno (`strerror`).
    public var message: String {
        String(cString: strerror(errno))
    }

    /// `"read failed: Input/output error (errno 5)"`.
    public var description: String {
        "\(operation) failed: \(message) (errno \(errno))"
    }
}
