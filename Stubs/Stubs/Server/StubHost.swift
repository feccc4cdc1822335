import HarnessSystem
/// The numeric address a `StubServer` listens on: IPv4 or IPv6 loopback by default.
public struct StubHost: Sendable, Hashable, CustomStringConvertible {
    /// The numeric address, e.g. `127.0.0.1` or `::1`.
    public let address: String
    /// Whether the address is IPv6.
    public let isIPv6: Bool

    /// 127.0.0.1.
    public static let loopbackIPv4 = StubHost(uncheckedAddress: "127.0.0.1", isIPv6: false)
    /// ::1.
    public static let loopbackIPv6 = StubHost(uncheckedAddress: "::1", isIPv6: true)

    /// A numeric IPv4 or IPv6 address (`[::1]` brackets allowed); throws when it is neither.
    public init(_ address: String) throws {
        var address = address
        if address.hasPrefix("[") && address.hasSuffix("]") { address = String(address.dropFirst().dropLast()) }
        if address == "localhost" { address = "127.0.0.1" }
        if Posix.isNumericAddress(address, .ipv4) {
            self.init(uncheckedAddress: address, isIPv6: false)
        } else if Posix.isNumericAddress(address, .ipv6) {
            self.init(uncheckedAddress: address, isIPv6: true)
        } else {
            throw StubServerError.invalidHost(address)
        }
    }

    private init(uncheckedAddress: String, isIPv6: Bool) {
        self.address = uncheckedAddress
        self.isIPv6 = isIPv6
    }

    var family: Posix.Family { isIPv6 ? .ipv6 : .ipv4 }

    /// Whether only this machine can connect to it: 127.0.0.0/8 or ::1.
    public var isLoopback: Bool { Posix.isLoopbackAddress(address) }

    /// The address as it appears in a URL (`[::1]` for IPv6).
    public var urlHost: String { isIPv6 ? "[\(address)]" : address }

    /// The address.
    public var description: String { address }
}
