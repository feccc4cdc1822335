#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A failed socket call of the load client.
struct SocketError: Error, CustomStringConvertible {
    let operation: String
    let code: Int32
    var description: String { "\(operation) failed: \(String(cString: strerror(code))) (errno \(code))" }
}

/// The benchmark's own minimal blocking HTTP/1.1 client socket, the same for every server.
/// (This module's only Glibc/Darwin file.)
final class BenchmarkSocket {
    private let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 256 * 1024)
    private var start = 0
    private var end = 0

    /// Connects to 127.0.0.1:`port` with TCP_NODELAY.
    init(port: UInt16) throws {
        #if canImport(Glibc)
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw SocketError(operation: "socket", code: errno) }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if result != 0 {
            let code = errno
            close(fd)
            throw SocketError(operation: "connect", code: code)
        }
    }

    deinit { close(fd) }

    /// Sends all of `request`.
    func send(_ request: [UInt8]) throws {
        var offset = 0
        while offset < request.count {
            let sent = request.withUnsafeBytes { bytes -> Int in
                #if canImport(Glibc)
                Glibc.send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                #else
                Darwin.send(fd, bytes.baseAddress! + offset, bytes.count - offset, 0)
                #endif
            }
            if sent < 0 {
                if errno == EINTR { continue }
                throw SocketError(operation: "send", code: errno)
            }
            offset += sent
        }
    }

    /// Reads one response (Content-Length framed); returns its status and whether the server will close.
    func readResponse() throws -> (status: Int, closes: Bool) {
        // Head.
        var headEnd: Int?
        while headEnd == nil {
            if end - start >= 4 {
                for index in start...(end - 4)
                where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
                    headEnd = index + 4
                    break
                }
            }
            if headEnd == nil { try fill() }
        }
        let head = String(decoding: buffer[start..<headEnd!], as: UTF8.self).lowercased()
        start = headEnd!
        let status = Int(head.split(separator: " ", maxSplits: 2)[1]) ?? 0
        var length = 0
        var closes = head.hasPrefix("http/1.0")
        for line in head.split(separator: "\r\n") {
            if line.hasPrefix("content-length:") { length = Int(line.dropFirst(15).trimmingCharacters(in: .whitespaces)) ?? 0 }
            if line.hasPrefix("connection:") {
                let value = line.dropFirst(11).trimmingCharacters(in: .whitespaces)
                closes = value == "close" ? true : (value == "keep-alive" ? false : closes)
            }
        }
        // Body.
        while end - start < length { try fill() }
        start += length
        return (status, closes)
    }

    private func fill() throws {
        if start == end {
            start = 0
            end = 0
        } else if end == buffer.count {
            buffer.replaceSubrange(0..<(end - start), with: buffer[start..<end])
            end -= start
            start = 0
        }
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + end, $0.count - end) }
        if count < 0 {
            if errno == EINTR { return }
            throw SocketError(operation: "read", code: errno)
        }
        if count == 0 { throw SocketError(operation: "read (connection closed)", code: ECONNRESET) }
        end += count
    }

    /// A free loopback port (bound then released) for peers that need one given.
    static func freePort() throws -> UInt16 {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                guard bind(fd, pointer, length) == 0 else { return -1 }
                return getsockname(fd, pointer, &length)
            }
        }
        guard bound == 0 else { throw SocketError(operation: "bind", code: errno) }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Sends SIGTERM to a peer process.
    static func terminate(_ pid: Int32) { kill(pid, SIGTERM) }
}
