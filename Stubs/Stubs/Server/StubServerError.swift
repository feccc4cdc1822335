/// Why a `StubServer` could not start.
public enum StubServerError: Error, Sendable, CustomStringConvertible {
    /// The host is not a numeric IPv4 or IPv6 address.
    case invalidHost(String)
    /// A socket call failed while starting (e.g. the port is in use).
    case cannotListen(host: String, port: UInt16, PosixError)
    /// The host is not loopback: any machine that reaches it could use the stubs.
    case notLoopback(String)

    /// A readable message.
    public var description: String {
        switch self {
        case .invalidHost(let host):
            return "invalid host \"\(host)\": expected a numeric IPv4 or IPv6 address such as 127.0.0.1 or ::1"
        case .cannotListen(let host, let port, let error):
            return "cannot listen on \(host) port \(port): \(error)"
        case .notLoopback(let host):
            return "refusing to listen on \(host): it is not a loopback address (127.0.0.1 or ::1), so other machines "
                + "could reach the stubs; a stub server listens on loopback only"
        }
    }
}
