import Foundation
@testable import Stubs
import HarnessSystem

/// A blocking TCP client for raw-socket tests: send any bytes, read with poll(2) deadlines.
final class RawClient {
    /// A parsed HTTP response.
    struct Response {
        var status: Int
        var headers: HTTPHeaders
        var body: [UInt8]
        var bodyText: String { String(decoding: body, as: UTF8.self) }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let fd: Int32
    private var buffer: [UInt8] = []
    private(set) var isClosed = false

    /// Connects to the server.
    convenience init(_ server: StubServer) throws {
        try self.init(host: server.host, port: server.port)
    }

    /// Connects to `host`:`port`.
    init(host: StubHost, port: UInt16) throws {
        fd = try Posix.makeStreamSocket(host.family, nonBlocking: false)
        do {
            try Posix.connect(fd, host.family, host: host.address, port: port)
        } catch {
            Posix.closeIgnoringErrors(fd)
            throw error
        }
    }

    deinit { close() }

    func close() {
        if !isClosed {
            isClosed = true
            Posix.closeIgnoringErrors(fd)
        }
    }

    /// Closes with a reset (unread data is discarded without a FIN handshake).
    func resetClose() {
        Posix.setResetOnClose(fd)
        close()
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            offset += try Posix.send(fd, bytes: bytes, from: offset) ?? 0
        }
    }

    /// Reads more bytes into the buffer; returns false at end of stream. Throws after `timeout`.
    @discardableResult
    private func fill(deadline: Date) throws -> Bool {
        var descriptors = [Posix.pollDescriptor(fd: fd, events: .readable)]
        let remaining = deadline.timeIntervalSinceNow
        guard remaining > 0 else { throw Failure(description: "timed out reading from the stub server; got \(buffer.count) bytes: \(String(decoding: buffer, as: UTF8.self).prefix(300))") }
        _ = try Posix.poll(&descriptors, timeoutMilliseconds: Int32(remaining * 1000) + 1)
        if descriptors[0].returnedEvents.isEmpty { return try fill(deadline: deadline) }
        var chunk = [UInt8](repeating: 0, count: 65536)
        // A blocking socket: a read never "would block" (ECONNRESET and friends are thrown).
        guard let count = try Posix.read(fd, into: &chunk) else { return try fill(deadline: deadline) }
        if count == 0 { return false }
        buffer += chunk[0..<count]
        return true
    }

    /// Whether the server sent something (or closed) within `milliseconds`; paces a client that
    /// trickles its request, and never decides a test's outcome by itself.
    func hasInput(withinMilliseconds milliseconds: Int32) throws -> Bool {
        if !buffer.isEmpty { return true }
        var descriptors = [Posix.pollDescriptor(fd: fd, events: .readable)]
        _ = try Posix.poll(&descriptors, timeoutMilliseconds: milliseconds)
        return !descriptors[0].returnedEvents.isEmpty
    }

    /// Reads everything until the server closes the connection.
    func readToEnd(timeout: TimeInterval = 10) throws -> [UInt8] {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while try fill(deadline: deadline) {}
        defer { buffer.removeAll() }
        return buffer
    }

    /// Whether the server closed the connection (EOF) within `timeout`, discarding data.
    func waitForClose(timeout: TimeInterval = 10) throws -> Bool {
        _ = try readToEnd(timeout: timeout)
        return true
    }

    /// Reads one response (Content-Length, chunked, or until close). `headRequest` skips the body.
    func readResponse(timeout: TimeInterval = 10, headRequest: Bool = false) throws -> Response {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            if let end = findHeadEnd() {
                let headText = String(decoding: buffer[0..<end], as: UTF8.self)
                var lines = headText.components(separatedBy: "\r\n").filter { !$0.isEmpty }
                let statusLine = lines.removeFirst()
                let parts = statusLine.split(separator: " ", maxSplits: 2)
                guard parts.count >= 2, let status = Int(parts[1]) else {
                    throw Failure(description: "bad status line \(statusLine)")
                }
                var headers = HTTPHeaders()
                for line in lines {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers.add(String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
                }
                buffer.removeFirst(end)
                if status == 100 { continue }
                var body: [UInt8] = []
                if headRequest || status == 204 || status == 304 {
                    // No body.
                } else if headers["Transfer-Encoding"]?.lowercased() == "chunked" {
                    body = try readChunked(deadline: deadline)
                } else if let length = headers["Content-Length"].flatMap(Int.init) {
                    while buffer.count < length {
                        guard try fill(deadline: deadline) else { throw Failure(description: "closed inside a body") }
                    }
                    body = Array(buffer[0..<length])
                    buffer.removeFirst(length)
                } else {
                    while try fill(deadline: deadline) {}
                    body = buffer
                    buffer.removeAll()
                }
                return Response(status: status, headers: headers, body: body)
            }
            guard try fill(deadline: deadline) else {
                throw Failure(description: "connection closed before a full response; got: \(String(decoding: buffer, as: UTF8.self).prefix(300))")
            }
        }
    }

    private func findHeadEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4) where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index + 4
        }
        return nil
    }

    private func readLine(deadline: Date) throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[0..<newline], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                buffer.removeFirst(newline + 1)
                return line
            }
            guard try fill(deadline: deadline) else { throw Failure(description: "closed inside a chunk line") }
        }
    }

    private func readChunked(deadline: Date) throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let line = try readLine(deadline: deadline)
            guard let size = Int(line.split(separator: ";")[0], radix: 16) else { throw Failure(description: "bad chunk size \(line)") }
            if size == 0 {
                while try !readLine(deadline: deadline).isEmpty {}
                return body
            }
            while buffer.count < size + 2 {
                guard try fill(deadline: deadline) else { throw Failure(description: "closed inside a chunk") }
            }
            body += buffer[0..<size]
            buffer.removeFirst(size + 2)
        }
    }
}
