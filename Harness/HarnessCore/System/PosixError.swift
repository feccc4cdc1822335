/// A failed system call: the operation's name and the `errno` saved right after it failed.
public struct PosixError: Error, Sendable, Equatable, CustomStringConvertible {
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
        Posix.errorMessage(errno)
    }

    /// `"read failed: Input/output error (errno 5)"`.
    public var description: String {
        "\(operation) failed: \(message) (errno \(errno))"
    }
}
