import Foundation

/// Unix-domain stream sockets for the bridge, shared by the app host and the harness.
///
/// Package-internal: apps and tests use `HarnessHost` and `BridgeListener` instead.
package enum UnixSocket {
    /// Why a blocking handshake step failed.
    package enum TransportError: Error, Sendable, CustomStringConvertible {
        case socket(SocketError)
        case wire(WireError)
        case timedOut(milliseconds: Int)
        case closedByPeer

        package var description: String {
            switch self {
            case .socket(let error): error.description
            case .wire(let error): error.description
            case .timedOut(let milliseconds): "no answer within \(milliseconds) ms"
            case .closedByPeer: "the other side closed the connection"
            }
        }
    }

    /// Connects to the socket at `path`; the descriptor is close-on-exec and never raises SIGPIPE.
    package static func connect(path: String) throws(SocketError) -> Int32 {
        let fd = try WirePosix.unixSocket()
        do {
            try WirePosix.connectSocket(fd, path: path)
        } catch {
            WirePosix.closeDescriptor(fd)
            throw error
        }
        return fd
    }

    /// Creates a socket listening at `path` (which must not exist).
    package static func listen(path: String, backlog: Int32 = 4) throws(SocketError) -> Int32 {
        let fd = try WirePosix.unixSocket()
        do {
            try WirePosix.bindSocket(fd, path: path)
            try WirePosix.listenSocket(fd, backlog: backlog)
            WirePosix.setNonBlocking(fd)
        } catch {
            WirePosix.closeDescriptor(fd)
            throw error
        }
        return fd
    }

    /// Accepts one pending connection from a listening socket.
    package static func accept(_ fd: Int32) throws(SocketError) -> Int32 {
        try WirePosix.acceptConnection(fd)
    }

    /// Closes a descriptor.
    package static func close(_ fd: Int32) { WirePosix.closeDescriptor(fd) }

    /// Removes a file, ignoring errors.
    package static func removeFile(_ path: String) { WirePosix.removeFile(path) }

    /// Sends all of `bytes`, waiting at most `timeoutMilliseconds` for socket buffer space.
    package static func sendAll(_ fd: Int32, _ bytes: [UInt8], timeoutMilliseconds: Int) throws(TransportError) {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeoutMilliseconds) * 1_000_000
        var offset = 0
        while offset < bytes.count {
            let sent: Int
            do {
                sent = try WirePosix.sendNonBlocking(fd, bytes, from: offset)
            } catch { throw .socket(error) }
            offset += sent
            if offset < bytes.count {
                try waitFor(fd, events: WirePosix.pollOut, deadline: deadline, timeout: timeoutMilliseconds)
            }
        }
    }

    /// Receives until `decoder` yields one message, waiting at most `timeoutMilliseconds`.
    package static func receiveMessage(
        _ fd: Int32, decoder: inout FrameDecoder, timeoutMilliseconds: Int
    ) throws(TransportError) -> BridgeMessage {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeoutMilliseconds) * 1_000_000
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            do {
                if let message = try decoder.nextMessage() { return message }
            } catch { throw .wire(error) }
            try waitFor(fd, events: WirePosix.pollIn, deadline: deadline, timeout: timeoutMilliseconds)
            let count: Int?
            do {
                count = try WirePosix.receiveNonBlocking(fd, into: &buffer)
            } catch { throw .socket(error) }
            guard let count else { continue }
            if count == 0 { throw .closedByPeer }
            decoder.append(buffer[0..<count])
        }
    }

    private static func waitFor(_ fd: Int32, events: Int16, deadline: UInt64, timeout: Int) throws(TransportError) {
        let now = DispatchTime.now().uptimeNanoseconds
        guard now < deadline else { throw .timedOut(milliseconds: timeout) }
        let remaining = Int32(clamping: (deadline - now + 999_999) / 1_000_000)
        let ready: [Int16]
        do {
            ready = try WirePosix.waitForEvents([(fd, events)], timeoutMilliseconds: remaining)
        } catch { throw .socket(error) }
        if ready[0] == 0 { throw .timedOut(milliseconds: timeout) }
    }
}
