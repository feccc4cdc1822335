#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The only place in HarnessWire that calls libc: thin throwing wrappers that retry EINTR.
enum WirePosix {
    #if canImport(Glibc)
    static let sendFlags = Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)
    static let streamType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    #else
    static let sendFlags = Int32(MSG_DONTWAIT)
    static let streamType = SOCK_STREAM
    #endif

    static func error(_ operation: String, _ code: Int32 = errno) -> SocketError {
        SocketError(operation: operation, errno: code, message: String(cString: strerror(code)))
    }

    @discardableResult
    static func retrying<T: BinaryInteger>(_ operation: String, _ body: () -> T) throws(SocketError) -> T {
        while true {
            let result = body()
            if result >= 0 { return result }
            let code = errno
            if code == EINTR { continue }
            throw error(operation, code)
        }
    }

    static func unixSocket() throws(SocketError) -> Int32 {
        let fd = try retrying("socket") { socket(AF_UNIX, streamType, 0) }
        #if canImport(Darwin)
        var on: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        #endif
        return fd
    }

    static func withAddress<T>(
        _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T
    ) throws(SocketError) -> T {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else {
            throw SocketError(operation: "bind/connect", errno: ENAMETOOLONG, message: "socket path longer than \(capacity - 1) bytes: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

    static func connectSocket(_ fd: Int32, path: String) throws(SocketError) {
        let result = try withAddress(path) { address, length in
            var result: Int32
            repeat { result = connect(fd, address, length) } while result < 0 && errno == EINTR
            return result < 0 ? errno : 0
        }
        if result != 0 { throw error("connect", result) }
    }

    static func bindSocket(_ fd: Int32, path: String) throws(SocketError) {
        let result = try withAddress(path) { address, length in
            bind(fd, address, length) < 0 ? errno : 0
        }
        if result != 0 { throw error("bind", result) }
    }

    static func listenSocket(_ fd: Int32, backlog: Int32) throws(SocketError) {
        try retrying("listen") { listen(fd, backlog) }
    }

    static func acceptConnection(_ fd: Int32) throws(SocketError) -> Int32 {
        let client = try retrying("accept") { accept(fd, nil, nil) }
        #if canImport(Darwin)
        var on: Int32 = 1
        _ = setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        return client
    }

    static func setNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    }

    /// Sends without blocking; returns the number of bytes sent, 0 when the socket buffer is full.
    static func sendNonBlocking(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SocketError) -> Int {
        while true {
            let sent = send(fd, bytes.baseAddress, bytes.count, sendFlags)
            if sent >= 0 { return sent }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return 0 }
            throw error("send", code)
        }
    }

    /// Sends `bytes[offset...]` without blocking; returns the number of bytes sent.
    static func sendNonBlocking(_ fd: Int32, _ bytes: [UInt8], from offset: Int = 0) throws(SocketError) -> Int {
        let result: Result<Int, SocketError> = bytes.withUnsafeBytes { raw in
            do throws(SocketError) { return .success(try sendNonBlocking(fd, UnsafeRawBufferPointer(rebasing: raw[offset...]))) }
            catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Receives into `buffer` without blocking; nil when nothing is available, 0 at end of stream.
    static func receiveNonBlocking(_ fd: Int32, into buffer: inout [UInt8]) throws(SocketError) -> Int? {
        let result: Result<Int?, SocketError> = buffer.withUnsafeMutableBytes { raw in
            do throws(SocketError) { return .success(try receiveNonBlocking(fd, raw)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Receives without blocking; returns nil when nothing is available, 0 at end of stream.
    static func receiveNonBlocking(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) throws(SocketError) -> Int? {
        while true {
            let count = recv(fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
            if count >= 0 { return count }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return nil }
            throw error("recv", code)
        }
    }

    /// Waits until one of `fds` is readable (or writable, for `writeFD`), or `timeoutMilliseconds` passes (-1: forever).
    /// Returns the readiness flags per descriptor, in order.
    static func waitForEvents(_ fds: [(fd: Int32, events: Int16)], timeoutMilliseconds: Int32) throws(SocketError) -> [Int16] {
        var pollFDs = fds.map { pollfd(fd: $0.fd, events: $0.events, revents: 0) }
        try retrying("poll") { poll(&pollFDs, nfds_t(pollFDs.count), timeoutMilliseconds) }
        return pollFDs.map(\.revents)
    }

    static func makePipe() throws(SocketError) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        try retrying("pipe") { pipe(&fds) }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            setNonBlocking(fd)
        }
        return (fds[0], fds[1])
    }

    static func wake(_ fd: Int32) {
        var byte: UInt8 = 1
        _ = write(fd, &byte, 1)
    }

    static func drain(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(fd, &buffer, buffer.count) > 0 {}
    }

    static func closeDescriptor(_ fd: Int32) { _ = close(fd) }

    static func removeFile(_ path: String) { _ = unlink(path) }

    static let pollIn = Int16(POLLIN)
    static let pollOut = Int16(POLLOUT)
    static let pollErrors = Int16(POLLERR) | Int16(POLLHUP) | Int16(POLLNVAL)
}

