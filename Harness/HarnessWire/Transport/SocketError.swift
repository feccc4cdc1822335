/// A failed system call on a bridge socket, with the errno saved right after it.
public struct SocketError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The system call, e.g. `connect`.
    public var operation: String
    /// The saved `errno`.
    public var errno: Int32
    /// `strerror(errno)`.
    public var message: String

    /// Creates an error for `operation` and `errno`.
    public init(operation: String, errno: Int32, message: String) {
        self.operation = operation
        self.errno = errno
        self.message = message
    }

    /// A readable explanation.
    public var description: String { "\(operation) failed: \(message) (errno \(errno))" }
}
