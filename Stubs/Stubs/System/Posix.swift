#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import StubsCShims

/// A failed system call: the operation, the saved `errno` and its `strerror` text.
public struct PosixError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name of the call that failed, e.g. `bind`.
    public let operation: String
    /// The `errno` value saved right after the call failed.
    public let errno: Int32

    /// Creates an error for `operation` failing with `errno`.
    public init(operation: String, errno: Int32) {
        self.operation = operation
        self.errno = errno
    }

    /// `strerror(errno)`.
    public var message: String { String(cString: strerror(errno)) }

    /// For example `bind failed: Address already in use (errno 98)`.
    public var description: String { "\(operation) failed: \(message) (errno \(errno))" }
}

/// The libc calls the stub server makes, behind one small wrapper.
///
/// This is the only file of the module that names Glibc or Darwin. Every call retries `EINTR`
/// and throws a `PosixError` carrying the saved `errno`.
enum Posix {
    /// The address family of a listening or connecting socket.
    enum Family: Sendable {
        case ipv4
        case ipv6
    }

    // MARK: - Errno constants used by callers

    static let wouldBlock: Int32 = EAGAIN
    static let wouldBlockAlternative: Int32 = EWOULDBLOCK
    static let inProgress: Int32 = EINPROGRESS
    static let tooManyFiles: Int32 = EMFILE
    static let tooManyFilesInSystem: Int32 = ENFILE
    static let pollIn = Int16(POLLIN)
    static let pollOut = Int16(POLLOUT)
    static let pollErrorMask = Int16(POLLERR | POLLHUP | POLLNVAL)

    /// A poll(2) entry.
    typealias PollDescriptor = pollfd

    /// Runs `call`, retrying while it fails with `EINTR`; throws with the saved errno otherwise.
    @discardableResult
    static func retrying<Result: BinaryInteger>(_ operation: String, _ call: () -> Result) throws -> Result {
        while true {
            let result = call()
            if result >= 0 { return result }
            let savedErrno = errno
            if savedErrno == EINTR { continue }
            throw PosixError(operation: operation, errno: savedErrno)
        }
    }

    // MARK: - Descriptors

    /// Closes `fd`, ignoring errors (EINTR on close must not be retried on Linux).
    static func close(_ fd: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(fd)
        #else
        _ = Darwin.close(fd)
        #endif
    }

    /// Reads up to `count` bytes into `buffer`; returns 0 at end of file.
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        try retrying("read") {
            #if canImport(Glibc)
            Glibc.read(fd, buffer, count)
            #else
            Darwin.read(fd, buffer, count)
            #endif
        }
    }

    /// Sends bytes on a socket without raising SIGPIPE; returns how many were sent.
    static func send(_ fd: Int32, _ buffer: UnsafeRawPointer, count: Int) throws -> Int {
        try retrying("send") {
            #if canImport(Glibc)
            Glibc.send(fd, buffer, count, Int32(MSG_NOSIGNAL))
            #else
            Darwin.send(fd, buffer, count, 0)
            #endif
        }
    }

    /// Writes bytes to a pipe or file descriptor.
    static func write(_ fd: Int32, _ buffer: UnsafeRawPointer, count: Int) throws -> Int {
        try retrying("write") {
            #if canImport(Glibc)
            Glibc.write(fd, buffer, count)
            #else
            Darwin.write(fd, buffer, count)
            #endif
        }
    }

    /// Creates a close-on-exec, non-blocking pipe: (read end, write end).
    static func makeWakePipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        try retrying("pipe2") { stubs_pipe_cloexec_nonblock(&fds) }
        return (fds[0], fds[1])
    }

    /// Puts `fd` in non-blocking mode.
    static func setNonBlocking(_ fd: Int32) throws {
        let flags = try retrying("fcntl(F_GETFL)") { fcntl(fd, F_GETFL) }
        try retrying("fcntl(F_SETFL)") { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    }

    /// poll(2) over `descriptors`; `timeoutMilliseconds` -1 waits forever. Returns the ready count.
    static func poll(_ descriptors: inout [PollDescriptor], timeoutMilliseconds: Int32) throws -> Int {
        let result = descriptors.withUnsafeMutableBufferPointer { buffer -> Int32 in
            #if canImport(Glibc)
            Glibc.poll(buffer.baseAddress, nfds_t(buffer.count), timeoutMilliseconds)
            #else
            Darwin.poll(buffer.baseAddress, nfds_t(buffer.count), timeoutMilliseconds)
            #endif
        }
        if result >= 0 { return Int(result) }
        let savedErrno = errno
        if savedErrno == EINTR { return 0 }  // The caller loops and recomputes its timeout.
        throw PosixError(operation: "poll", errno: savedErrno)
    }

    /// Makes a poll entry.
    static func pollDescriptor(fd: Int32, events: Int16) -> PollDescriptor {
        pollfd(fd: fd, events: events, revents: 0)
    }

    // MARK: - Sockets

    /// Creates a close-on-exec TCP socket, non-blocking when asked.
    static func makeStreamSocket(_ family: Family, nonBlocking: Bool) throws -> Int32 {
        let domain = family == .ipv4 ? AF_INET : AF_INET6
        #if canImport(Glibc)
        var type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        if nonBlocking { type |= Int32(SOCK_NONBLOCK.rawValue) }
        return try retrying("socket") { socket(domain, type, 0) }
        #else
        let fd = try retrying("socket") { socket(domain, SOCK_STREAM, 0) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        if nonBlocking {
            do { try setNonBlocking(fd) } catch { close(fd); throw error }
        }
        return fd
        #endif
    }

    /// Sets an integer socket option.
    static func setOption(_ fd: Int32, level: Int32, name: Int32, value: Int32, label: String) throws {
        var value = value
        try retrying("setsockopt(\(label))") {
            setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
        }
    }

    /// Allows rebinding a port still in TIME_WAIT.
    static func setReuseAddress(_ fd: Int32) throws {
        try setOption(fd, level: SOL_SOCKET, name: SO_REUSEADDR, value: 1, label: "SO_REUSEADDR")
    }

    /// Disables Nagle's algorithm so small responses leave at once.
    static func setNoDelay(_ fd: Int32) {
        try? setOption(fd, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1, label: "TCP_NODELAY")
    }

    /// Restricts an IPv6 socket to IPv6 (no mapped IPv4 addresses).
    static func setIPv6Only(_ fd: Int32) {
        try? setOption(fd, level: Int32(IPPROTO_IPV6), name: IPV6_V6ONLY, value: 1, label: "IPV6_V6ONLY")
    }

    /// Sets SO_LINGER to {on, 0 s} so that `close` sends a TCP RST instead of a FIN.
    static func setResetOnClose(_ fd: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    /// Shuts down the sending side (sends FIN once queued data left).
    static func shutdownWrite(_ fd: Int32) {
        #if canImport(Glibc)
        _ = shutdown(fd, Int32(SHUT_WR))
        #else
        _ = shutdown(fd, SHUT_WR)
        #endif
    }

    /// Runs `body` with a socket address for `family`, `host` (numeric) and `port`.
    static func withSocketAddress<Result>(
        _ family: Family, host: String, port: UInt16,
        _ body: (UnsafePointer<sockaddr>, socklen_t) throws -> Result
    ) throws -> Result {
        switch family {
        case .ipv4:
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
                throw PosixError(operation: "inet_pton(\(host))", errno: EINVAL)
            }
            return try withUnsafePointer(to: &address) {
                try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    try body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        case .ipv6:
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else {
                throw PosixError(operation: "inet_pton(\(host))", errno: EINVAL)
            }
            return try withUnsafePointer(to: &address) {
                try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    try body($0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
    }

    /// Binds `fd` to `host`:`port`.
    static func bind(_ fd: Int32, _ family: Family, host: String, port: UInt16) throws {
        _ = try withSocketAddress(family, host: host, port: port) { address, length in
            #if canImport(Glibc)
            try retrying("bind") { Glibc.bind(fd, address, length) }
            #else
            try retrying("bind") { Darwin.bind(fd, address, length) }
            #endif
        }
    }

    /// Starts listening with `backlog`.
    static func listen(_ fd: Int32, backlog: Int32) throws {
        #if canImport(Glibc)
        try retrying("listen") { Glibc.listen(fd, backlog) }
        #else
        try retrying("listen") { Darwin.listen(fd, backlog) }
        #endif
    }

    /// Connects a blocking socket to `host`:`port`.
    static func connect(_ fd: Int32, _ family: Family, host: String, port: UInt16) throws {
        _ = try withSocketAddress(family, host: host, port: port) { address, length in
            #if canImport(Glibc)
            try retrying("connect") { Glibc.connect(fd, address, length) }
            #else
            try retrying("connect") { Darwin.connect(fd, address, length) }
            #endif
        }
    }

    /// The local port a socket is bound to.
    static func localPort(_ fd: Int32) throws -> UInt16 {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = try withUnsafeMutablePointer(to: &storage) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                try retrying("getsockname") { getsockname(fd, address, &length) }
            }
        }
        if Int32(storage.ss_family) == AF_INET {
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
            }
        }
        return withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
        }
    }

    /// Accepts one connection as a non-blocking, close-on-exec socket; nil when none is waiting.
    static func accept(_ listener: Int32) throws -> Int32? {
        while true {
            let fd = stubs_accept_cloexec_nonblock(listener)
            if fd >= 0 {
                #if !canImport(Glibc)
                var one: Int32 = 1
                _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
                #endif
                return fd
            }
            let savedErrno = errno
            switch savedErrno {
            case EINTR, ECONNABORTED: continue
            case EAGAIN, EWOULDBLOCK: return nil
            default: throw PosixError(operation: "accept", errno: savedErrno)
            }
        }
    }

    /// Whether an error means "try again later" on a non-blocking descriptor.
    static func isWouldBlock(_ error: Error) -> Bool {
        guard let error = error as? PosixError else { return false }
        return error.errno == EAGAIN || error.errno == EWOULDBLOCK
    }

    /// A monotonic clock reading in nanoseconds.
    static func monotonicNanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// The number of open file descriptors of this process (Linux: /proc/self/fd), or nil.
    static func openDescriptorCount() -> Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")).map(\.count)
    }

    /// Sets the receive timeout of a blocking socket.
    static func setReceiveTimeout(_ fd: Int32, milliseconds: Int) {
        var value = timeval(tv_sec: milliseconds / 1000, tv_usec: .init((milliseconds % 1000) * 1000))
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }
}
