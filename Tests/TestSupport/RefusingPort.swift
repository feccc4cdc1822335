import Foundation
import HarnessSystem

/// A loopback TCP port that refuses every connection for as long as this value lives: a socket
/// bound to it that never listens. Binding a port and closing it again is not enough: the
/// system may hand the same ephemeral port to another test's server (or another test
/// process's) in the meantime, and the "refused" request is then answered.
public final class RefusingPort: Sendable {
    /// The port number.
    public let port: UInt16
    private let descriptor: Int32

    /// Binds a socket to a free loopback port and keeps it, without listening.
    public init() throws {
        let descriptor = try Posix.makeStreamSocket(.ipv4, nonBlocking: false)
        do {
            try Posix.bind(descriptor, .ipv4, host: "127.0.0.1", port: 0)
            port = try Posix.localPort(descriptor)
        } catch {
            Posix.closeIgnoringErrors(descriptor)
            throw error
        }
        self.descriptor = descriptor
    }

    /// `http://127.0.0.1:PORT`.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    deinit { Posix.closeIgnoringErrors(descriptor) }
}
