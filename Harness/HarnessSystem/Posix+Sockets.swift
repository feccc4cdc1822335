// Sockets: TCP on loopback for the stub server and its tests, Unix-domain stream sockets for
// the bridge. Every socket is created close-on-exec atomically (see CHarnessSystem) and never
// raises SIGPIPE (MSG_NOSIGNAL on Linux, SO_NOSIGPIPE on Darwin).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CHarnessSystem

extension Posix {
    /// The address family of a TCP socket.
    package enum Family: Sendable {
        case ipv4
        case ipv6
    }

    #if canImport(Glibc)
    private static let streamType = Int32(SOCK_STREAM.rawValue)
    private static let noSignal = Int32(MSG_NOSIGNAL)
    #else
    private static let streamType = SOCK_STREAM
    private static let noSignal: Int32 = 0
    #endif

    // MARK: - Creating, accepting, closing

    /// A close-on-exec TCP socket, non-blocking when asked.
    package static func makeStreamSocket(_ family: Family, nonBlocking: Bool) throws(SystemError) -> Int32 {
        try retrying("socket") { harness_socket(family == .ipv4 ? AF_INET : AF_INET6, streamType, nonBlocking ? 1 : 0) }
    }

    /// A close-on-exec Unix-domain stream socket, non-blocking when asked.
    package static func makeUnixSocket(nonBlocking: Bool = false) throws(SystemError) -> Int32 {
        try retrying("socket") { harness_socket(AF_UNIX, streamType, nonBlocking ? 1 : 0) }
    }

    /// Accepts one connection as a close-on-exec socket (non-blocking when asked); nil when
    /// none is waiting on a non-blocking listener. A connection aborted before it was
    /// accepted is skipped.
    package static func accept(_ listener: Int32, nonBlocking: Bool) throws(SystemError) -> Int32? {
        while true {
            let fd = harness_accept(listener, nonBlocking ? 1 : 0)
            if fd >= 0 { return fd }
            let saved = errno
            switch saved {
            case EINTR, ECONNABORTED: continue
            case EAGAIN, EWOULDBLOCK: return nil
            default: throw SystemError(operation: "accept", errno: saved)
            }
        }
    }

    /// Shuts down the sending side (a FIN leaves once queued data went).
    package static func shutdownWrite(_ fd: Int32) {
        #if canImport(Glibc)
        _ = libcShutdown(fd, Int32(SHUT_WR))
        #else
        _ = libcShutdown(fd, SHUT_WR)
        #endif
    }

    // MARK: - Sending and receiving

    /// `send(2)` that never raises SIGPIPE; with `nonBlocking`, it does not wait for buffer
    /// space even on a blocking socket. Returns the bytes sent, nil when it would block.
    package static func send(_ fd: Int32, _ buffer: UnsafeRawBufferPointer, nonBlocking: Bool = false) throws(SystemError) -> Int? {
        let flags = noSignal | (nonBlocking ? Int32(MSG_DONTWAIT) : 0)
        return try retryingUnlessWouldBlock("send") { libcSend(fd, buffer.baseAddress, buffer.count, flags) }
    }

    /// ``send(_:_:nonBlocking:)`` of `bytes[offset...]`.
    package static func send(_ fd: Int32, bytes: [UInt8], from offset: Int = 0, nonBlocking: Bool = false) throws(SystemError) -> Int? {
        let result: Result<Int?, SystemError> = bytes.withUnsafeBytes { raw in
            do throws(SystemError) {
                return .success(try send(fd, UnsafeRawBufferPointer(rebasing: raw[offset...]), nonBlocking: nonBlocking))
            } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// `recv(2)`; with `nonBlocking`, it does not wait even on a blocking socket. Returns the
    /// bytes received (0 at end of stream), nil when it would block.
    package static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, nonBlocking: Bool = false) throws(SystemError) -> Int? {
        let flags = nonBlocking ? Int32(MSG_DONTWAIT) : 0
        return try retryingUnlessWouldBlock("recv") { libcRecv(fd, buffer.baseAddress, buffer.count, flags) }
    }

    /// ``receive(_:into:nonBlocking:)`` into the whole of `buffer`.
    package static func receive(_ fd: Int32, into buffer: inout [UInt8], nonBlocking: Bool = false) throws(SystemError) -> Int? {
        let result: Result<Int?, SystemError> = buffer.withUnsafeMutableBytes { raw in
            do throws(SystemError) { return .success(try receive(fd, into: raw, nonBlocking: nonBlocking)) }
            catch { return .failure(error) }
        }
        return try result.get()
    }

    // MARK: - Options

    /// Sets an integer socket option.
    package static func setOption(_ fd: Int32, level: Int32, name: Int32, value: Int32, label: String) throws(SystemError) {
        var value = value
        try retrying("setsockopt(\(label))") { setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) }
    }

    /// Allows rebinding a port still in TIME_WAIT.
    package static func setReuseAddress(_ fd: Int32) throws(SystemError) {
        try setOption(fd, level: SOL_SOCKET, name: SO_REUSEADDR, value: 1, label: "SO_REUSEADDR")
    }

    /// Disables Nagle's algorithm so small responses leave at once.
    package static func setNoDelay(_ fd: Int32) {
        try? setOption(fd, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1, label: "TCP_NODELAY")
    }

    /// Restricts an IPv6 socket to IPv6 (no mapped IPv4 addresses).
    package static func setIPv6Only(_ fd: Int32) {
        try? setOption(fd, level: Int32(IPPROTO_IPV6), name: IPV6_V6ONLY, value: 1, label: "IPV6_V6ONLY")
    }

    /// Sets SO_LINGER to {on, 0 s} so that `close` sends a TCP RST instead of a FIN.
    package static func setResetOnClose(_ fd: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    // MARK: - TCP addresses

    /// Whether `host` is a numeric address of `family`.
    package static func isNumericAddress(_ host: String, _ family: Family) -> Bool {
        (try? withSocketAddress(family, host: host, port: 0) { _, _ in }) != nil
    }

    /// Whether `host` is a numeric loopback address: IPv4 127.0.0.0/8 or IPv6 `::1` (any spelling).
    package static func isLoopbackAddress(_ host: String) -> Bool {
        var ipv4 = in_addr()
        if inet_pton(AF_INET, host, &ipv4) == 1 { return UInt32(bigEndian: ipv4.s_addr) >> 24 == 127 }
        var ipv6 = in6_addr()
        guard inet_pton(AF_INET6, host, &ipv6) == 1 else { return false }
        return withUnsafeBytes(of: &ipv6) { Array($0) } == Array(repeating: 0, count: 15) + [1]
    }

    /// Runs `body` with a socket address for `family`, `host` (numeric) and `port`.
    package static func withSocketAddress<Result>(
        _ family: Family, host: String, port: UInt16,
        _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
    ) throws(SystemError) -> Result {
        switch family {
        case .ipv4:
            return try withAddress(
                sockaddr_in(), AF_INET, host: host, port: port, family: \.sin_family, portField: \.sin_port, ip: \.sin_addr, body
            )
        case .ipv6:
            return try withAddress(
                sockaddr_in6(), AF_INET6, host: host, port: port, family: \.sin6_family, portField: \.sin6_port, ip: \.sin6_addr, body
            )
        }
    }

    /// Fills `empty` (a `sockaddr_in` or `sockaddr_in6`, named by its fields) for `host` and
    /// `port` and runs `body` with it as a generic socket address.
    private static func withAddress<Address, IP, Result>(
        _ empty: Address, _ addressFamily: Int32, host: String, port: UInt16,
        family: WritableKeyPath<Address, sa_family_t>, portField: WritableKeyPath<Address, in_port_t>,
        ip: WritableKeyPath<Address, IP>,
        _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
    ) throws(SystemError) -> Result {
        var address = empty
        address[keyPath: family] = sa_family_t(addressFamily)
        address[keyPath: portField] = port.bigEndian
        guard inet_pton(addressFamily, host, &address[keyPath: ip]) == 1 else { throw invalidHost(host) }
        return withGenericAddress(&address, body)
    }

    private static func invalidHost(_ host: String) -> SystemError {
        SystemError(operation: "inet_pton(\(host))", errno: EINVAL)
    }

    /// Runs `body` with `address` (a `sockaddr_in` or `sockaddr_in6`) seen as a `sockaddr`.
    private static func withGenericAddress<Address, Result>(
        _ address: inout Address, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
    ) -> Result {
        withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<Address>.size)) }
        }
    }

    /// Binds a TCP socket to `host`:`port`.
    package static func bind(_ fd: Int32, _ family: Family, host: String, port: UInt16) throws(SystemError) {
        let result = try withSocketAddress(family, host: host, port: port) { address, length in
            Result { () throws(SystemError) in try retrying("bind") { libcBind(fd, address, length) } }
        }
        _ = try result.get()
    }

    /// Connects a blocking TCP socket to `host`:`port`.
    package static func connect(_ fd: Int32, _ family: Family, host: String, port: UInt16) throws(SystemError) {
        let result = try withSocketAddress(family, host: host, port: port) { address, length in
            Result { () throws(SystemError) in try connectRetrying(fd, address, length) }
        }
        _ = try result.get()
    }

    /// Starts listening with `backlog`.
    package static func listen(_ fd: Int32, backlog: Int32) throws(SystemError) {
        try retrying("listen") { libcListen(fd, backlog) }
    }

    /// The local port a TCP socket is bound to.
    package static func localPort(_ fd: Int32) throws(SystemError) -> UInt16 {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                Result { () throws(SystemError) in try retrying("getsockname") { getsockname(fd, address, &length) } }
            }
        }
        _ = try result.get()
        if Int32(storage.ss_family) == AF_INET {
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
            }
        }
        return withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
        }
    }

    // MARK: - Unix-domain addresses

    /// Runs `body` with the `sockaddr_un` of `path`; throws ENAMETOOLONG when it does not fit.
    package static func withUnixAddress<Result>(
        _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
    ) throws(SystemError) -> Result {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else {
            throw SystemError(operation: "socket path longer than \(capacity - 1) bytes: \(path)", errno: ENAMETOOLONG)
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

    /// Binds a Unix-domain socket to `path` (which must not exist).
    package static func bind(_ fd: Int32, path: String) throws(SystemError) {
        let result = try withUnixAddress(path) { address, length in
            Result { () throws(SystemError) in try retrying("bind") { libcBind(fd, address, length) } }
        }
        _ = try result.get()
    }

    /// Connects a blocking Unix-domain socket to `path`.
    package static func connect(_ fd: Int32, path: String) throws(SystemError) {
        let result = try withUnixAddress(path) { address, length in
            Result { () throws(SystemError) in try connectRetrying(fd, address, length) }
        }
        _ = try result.get()
    }

    /// `connect(2)` on a blocking socket. A connect that a signal interrupts goes on in the
    /// kernel, so instead of starting it again, wait until it finishes and read its outcome.
    private static func connectRetrying(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) throws(SystemError) {
        if libcConnect(fd, address, length) == 0 { return }
        var saved = errno
        if saved == EINTR {
            _ = try poll([(fd, .writable)], timeoutMilliseconds: -1)
            var code: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            try retrying("getsockopt(SO_ERROR)") { getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &size) }
            if code == 0 { return }
            saved = code
        }
        throw SystemError(operation: "connect", errno: saved)
    }
}
