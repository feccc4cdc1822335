import HarnessSystem

// Unix-domain stream sockets for the bridge with blocking-with-deadline handshake steps, on
// top of HarnessSystem's `Posix`.

/// Unix-domain stream sockets for the bridge, shared by the app host and the harness.
///
/// Package-internal: apps and tests use `HarnessHost` and `BridgeListener` instead.
package enum UnixSocket {
    /// Why a blocking handshake step failed.
    package enum TransportError: Error, Sendable, CustomStringConvertible {
        case socket(SystemError)
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
    package static func connect(path: String) throws(SystemError) -> Int32 {
        let fd = try Posix.makeUnixSocket()
        do {
            try Posix.connect(fd, path: path)
        } catch {
            Posix.closeIgnoringErrors(fd)
            throw error
        }
        return fd
    }

    /// Creates a socket listening at `path` (which must not exist).
    /// The listening socket is non-blocking, so an accept when no one is waiting returns nil.
    package static func listen(path: String, backlog: Int32 = 4) throws(SystemError) -> Int32 {
        let fd = try Posix.makeUnixSocket(nonBlocking: true)
        do {
            try Posix.bind(fd, path: path)
            try Posix.listen(fd, backlog: backlog)
        } catch {
            Posix.closeIgnoringErrors(fd)
            throw error
        }
        return fd
    }

    /// Accepts one pending connection from a listening socket as a blocking, close-on-exec
    /// socket; nil when none is waiting.
    package static func accept(_ fd: Int32) throws(SystemError) -> Int32? {
        try Posix.accept(fd, nonBlocking: false)
    }

    /// Closes a descriptor.
    package static func close(_ fd: Int32) { Posix.closeIgnoringErrors(fd) }

    /// Removes a file, ignoring errors.
    package static func removeFile(_ path: String) { Posix.removeFile(path) }

    /// Sends all of `bytes`, waiting at most `timeoutMilliseconds` for socket buffer space.
    package static func sendAll(_ fd: Int32, _ bytes: [UInt8], timeoutMilliseconds: Int) throws(TransportError) {
        let deadline = MonotonicClock.deadline(after: .milliseconds(timeoutMilliseconds))
        var offset = 0
        while offset < bytes.count {
            let sent: Int?
            do {
                sent = try Posix.send(fd, bytes: bytes, from: offset, nonBlocking: true)
            } catch { throw .socket(error) }
            offset += sent ?? 0
            if offset < bytes.count {
                try waitFor(fd, events: .writable, deadline: deadline, timeout: timeoutMilliseconds)
            }
        }
    }

    /// Receives until `decoder` yields one message, waiting at most `timeoutMilliseconds`.
    package static func receiveMessage(
        _ fd: Int32, decoder: inout FrameDecoder, timeoutMilliseconds: Int
    ) throws(TransportError) -> BridgeMessage {
        let deadline = MonotonicClock.deadline(after: .milliseconds(timeoutMilliseconds))
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            do {
                if let message = try decoder.nextMessage() { return message }
            } catch { throw .wire(error) }
            try waitFor(fd, events: .readable, deadline: deadline, timeout: timeoutMilliseconds)
            let count: Int?
            do {
                count = try Posix.receive(fd, into: &buffer, nonBlocking: true)
            } catch { throw .socket(error) }
            guard let count else { continue }
            if count == 0 { throw .closedByPeer }
            decoder.append(buffer[0..<count])
        }
    }

    private static func waitFor(_ fd: Int32, events: Posix.PollEvents, deadline: UInt64, timeout: Int) throws(TransportError) {
        let remaining = MonotonicClock.milliseconds(until: deadline)
        guard remaining > 0 else { throw .timedOut(milliseconds: timeout) }
        let ready: [Posix.PollEvents]
        do {
            ready = try Posix.poll([(fd, events)], timeoutMilliseconds: remaining)
        } catch { throw .socket(error) }
        if ready[0].isEmpty { throw .timedOut(milliseconds: timeout) }
    }
}
