import Foundation
import HarnessWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The baseline: the same frames over a Unix socket between two threads of their own
/// (a client and a server) with blocking reads and writes, no JSON, no bridge machinery.
final class RawEcho: Sendable {
    private let client: Int32
    private let server: Int32
    private let directory: String

    /// `responses[request.count]` is what the server answers to a request of that size.
    init(responses: [Int: [UInt8]]) throws {
        directory = NSTemporaryDirectory() + "raw-echo-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let path = directory + "/echo.sock"
        let listener = try UnixSocket.listen(path: path)
        client = try UnixSocket.connect(path: path)
        var pollDescriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        _ = poll(&pollDescriptor, 1, 5000)
        guard let accepted = try UnixSocket.accept(listener) else { throw SocketError(operation: "accept", errno: EAGAIN) }
        server = accepted
        UnixSocket.close(listener)
        let serverFD = server
        let thread = Thread {
            var header = [UInt8](repeating: 0, count: 4)
            var body = [UInt8](repeating: 0, count: 32 * 1024 * 1024)
            while Self.readFully(serverFD, &header, count: 4) {
                let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
                guard Self.readFully(serverFD, &body, count: length) else { return }
                guard let response = responses[length + 4] else { return }
                guard Self.writeFully(serverFD, response) else { return }
            }
        }
        thread.start()
    }

    /// Times `count` round trips of `request` (µs each) on a client thread of their own.
    func measure(_ request: [UInt8], count: Int) async -> [Double] {
        await withCheckedContinuation { continuation in
            let thread = Thread { [self] in
                var buffer = [UInt8](repeating: 0, count: 32 * 1024 * 1024)
                var samples: [Double] = []
                samples.reserveCapacity(count)
                let clock = ContinuousClock()
                for _ in 0..<count {
                    let start = clock.now
                    roundTrip(request, into: &buffer)
                    samples.append(BridgeBenchmark.microseconds(clock.now - start))
                }
                continuation.resume(returning: samples)
            }
            thread.start()
        }
    }

    /// Sends `request` and reads one whole frame back.
    func roundTrip(_ request: [UInt8], into buffer: inout [UInt8]) {
        _ = Self.writeFully(client, request)
        var header = [UInt8](repeating: 0, count: 4)
        _ = Self.readFully(client, &header, count: 4)
        let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
        _ = Self.readFully(client, &buffer, count: length)
    }

    func close() {
        shutdown(client, Int32(SHUT_RDWR))
        UnixSocket.close(client)
        try? FileManager.default.removeItem(atPath: directory)
    }

    static func readFully(_ fd: Int32, _ buffer: inout [UInt8], count: Int) -> Bool {
        var offset = 0
        while offset < count {
            let received = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + offset, count - offset, 0) }
            if received <= 0 { if received < 0 && errno == EINTR { continue }; return false }
            offset += received
        }
        return true
    }

    static func writeFully(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
            #else
            let flags: Int32 = 0
            #endif
            let sent = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, bytes.count - offset, flags) }
            if sent <= 0 { if sent < 0 && errno == EINTR { continue }; return false }
            offset += sent
        }
        return true
    }
}
