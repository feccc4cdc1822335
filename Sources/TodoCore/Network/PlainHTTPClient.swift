import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP/1.1 client for `http://` addresses: one GET, one connection, one deadline.
///
/// Why the app has one: on Linux, FoundationNetworking's URLSession keeps the socket's write
/// source registered after libcurl has sent the request and only waits to read, so while an
/// answer is pending it wakes some ten thousand times a second and keeps a core busy (see
/// `_SocketSources.createSources` in swift-corelibs-foundation: a source is only ever added).
/// A slow or hanging server (the very case the app's Loading and Oops screens are for) would
/// make the app burn a core. Plain `http://` is all a local server or the harness's stub
/// speaks; `https://` still goes through URLSession.
///
/// The answer is read on a thread of its own (blocking calls with `poll` and one deadline for
/// connecting, sending and reading), never on the cooperative pool.
struct PlainHTTPClient: Sendable {
    /// What came back: the status and the body (chunked and length-delimited bodies decoded).
    struct Response: Equatable, Sendable {
        var status: Int
        var headers: [(name: String, value: String)]
        var body: [UInt8]

        static func == (lhs: Response, rhs: Response) -> Bool {
            lhs.status == rhs.status && lhs.body == rhs.body
                && lhs.headers.map { [$0.name, $0.value] } == rhs.headers.map { [$0.name, $0.value] }
        }
    }

    /// The largest body accepted: the todo list is a few kilobytes.
    static let maxBodySize = 64 << 20

    let timeout: TimeInterval

    /// GETs `url` (which must be `http://`); throws ``TodoAPIError`` for every failure.
    func get(_ url: URL, headers: [(String, String)]) async throws(TodoAPIError) -> Response {
        let timeout = self.timeout
        let result: Result<Response, TodoAPIError> = await withCheckedContinuation { continuation in
            let thread = Thread {
                do throws(TodoAPIError) {
                    continuation.resume(returning: .success(try Self.exchange(url, headers: headers, timeout: timeout)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
            thread.name = "todo-http"
            thread.start()
        }
        return try result.get()
    }

    // MARK: - One exchange, blocking

    static func exchange(_ url: URL, headers: [(String, String)], timeout: TimeInterval) throws(TodoAPIError) -> Response {
        guard url.scheme?.lowercased() == "http", let host = url.host, !host.isEmpty else {
            throw .transport("only http:// addresses are read without URLSession: \(url.absoluteString)")
        }
        let port = url.port ?? 80
        let deadline = Deadline(seconds: timeout)
        let socket = try connect(host: host, port: port, deadline: deadline)
        defer { close(socket) }

        var target = url.path.isEmpty ? "/" : url.path
        if let query = url.query { target += "?" + query }
        let hostHeader = url.port.map { "\(host):\($0)" } ?? host
        var request = "GET \(target) HTTP/1.1\r\nHost: \(hostHeader)\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "Connection: close\r\n\r\n"
        try send(Array(request.utf8), on: socket, deadline: deadline)
        return try readResponse(from: socket, deadline: deadline)
    }

    /// A point in monotonic time; `remainingMilliseconds` is what poll may wait.
    struct Deadline {
        let end: UInt64

        init(seconds: TimeInterval) {
            let nanoseconds = seconds.isFinite && seconds > 0 ? min(seconds, 1e9) * 1e9 : 0
            end = DispatchTime.now().uptimeNanoseconds &+ UInt64(nanoseconds)
        }

        var remainingMilliseconds: Int32 {
            let now = DispatchTime.now().uptimeNanoseconds
            guard end > now else { return 0 }
            return Int32(clamping: (end - now + 999_999) / 1_000_000)
        }
    }

    /// Waits until `socket` is ready for `events`; false when the deadline passed first.
    static func wait(_ socket: Int32, for events: Int16, deadline: Deadline) throws(TodoAPIError) -> Bool {
        while true {
            let remaining = deadline.remainingMilliseconds
            if remaining == 0 { return false }
            var descriptor = pollfd(fd: socket, events: events, revents: 0)
            let ready = poll(&descriptor, 1, remaining)
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { throw .transport("waiting for the server failed: \(String(cString: strerror(errno)))") }
        }
    }

    // MARK: Connecting

    static func connect(host: String, port: Int, deadline: Deadline) throws(TodoAPIError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else { throw .transport("the server's name could not be found") }
        defer { freeaddrinfo(first) }

        var refused = false
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            switch try connect(to: address.pointee, deadline: deadline) {
            case .connected(let socket): return socket
            case .refused: refused = true
            case .timedOut: throw .timedOut
            }
        }
        throw .transport(refused ? "could not connect to the server" : "could not connect to the server (no usable address)")
    }

    enum Attempt { case connected(Int32), refused, timedOut }

    static func connect(to address: addrinfo, deadline: Deadline) throws(TodoAPIError) -> Attempt {
        #if canImport(Glibc)
        let socket = Glibc.socket(address.ai_family, address.ai_socktype | Int32(SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue), address.ai_protocol)
        #else
        let socket = Darwin.socket(address.ai_family, address.ai_socktype, address.ai_protocol)
        if socket >= 0 {
            _ = fcntl(socket, F_SETFD, FD_CLOEXEC)
            _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
            var on: Int32 = 1
            _ = setsockopt(socket, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        #endif
        guard socket >= 0 else { throw .transport("could not make a socket: \(String(cString: strerror(errno)))") }
        var keep = false
        defer { if !keep { close(socket) } }

        #if canImport(Glibc)
        let started = Glibc.connect(socket, address.ai_addr, address.ai_addrlen)
        #else
        let started = Darwin.connect(socket, address.ai_addr, address.ai_addrlen)
        #endif
        if started != 0 {
            guard errno == EINPROGRESS || errno == EINTR else { return .refused }
            guard try wait(socket, for: Int16(POLLOUT), deadline: deadline) else { return .timedOut }
            var failure: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(socket, SOL_SOCKET, SO_ERROR, &failure, &length)
            guard failure == 0 else { return .refused }
        }
        keep = true
        return .connected(socket)
    }

    // MARK: Sending and reading

    static func send(_ bytes: [UInt8], on socket: Int32, deadline: Deadline) throws(TodoAPIError) {
        var sent = 0
        while sent < bytes.count {
            #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
            #else
            let flags: Int32 = 0
            #endif
            #if canImport(Glibc)
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, flags) }
            #else
            let count = bytes[sent...].withUnsafeBytes { Darwin.send(socket, $0.baseAddress, $0.count, flags) }
            #endif
            if count > 0 { sent += count; continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                guard try wait(socket, for: Int16(POLLOUT), deadline: deadline) else { throw .timedOut }
                continue
            }
            throw .transport("the connection was closed before an answer")
        }
    }

    /// Reads until the response is complete (by its framing) or the server closes.
    static func readResponse(from socket: Int32, deadline: Deadline) throws(TodoAPIError) -> Response {
        var parser = ResponseParser()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            if let response = try parser.complete(atEnd: false) { return response }
            guard try wait(socket, for: Int16(POLLIN), deadline: deadline) else { throw .timedOut }
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                try parser.append(buffer[..<count])
            } else if count == 0 {
                if let response = try parser.complete(atEnd: true) { return response }
                throw .transport("the connection was closed before an answer")
            } else if errno == ECONNRESET || errno == EPIPE {
                throw .transport("the connection was closed before an answer")
            } else if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
                throw .transport("reading the answer failed: \(String(cString: strerror(errno)))")
            }
        }
    }
}

/// Parses one HTTP/1.x response as bytes arrive: the status line, the headers, then a body
/// framed by `Transfer-Encoding: chunked`, `Content-Length`, or the end of the connection.
struct ResponseParser {
    private var bytes: [UInt8] = []
    private var head: (status: Int, headers: [(name: String, value: String)], bodyStart: Int)?

    var isEmpty: Bool { bytes.isEmpty }

    mutating func append(_ chunk: ArraySlice<UInt8>) throws(TodoAPIError) {
        bytes.append(contentsOf: chunk)
        if bytes.count > PlainHTTPClient.maxBodySize + 64 * 1024 {
            throw .transport("the answer is larger than \(PlainHTTPClient.maxBodySize >> 20) MB")
        }
        if bytes.count >= 5, !bytes.starts(with: Array("HTTP/".utf8)) {
            throw .transport("the server sent something that is not HTTP")
        }
    }

    /// The response when complete; nil when more bytes are needed. `atEnd`: the server closed.
    mutating func complete(atEnd: Bool) throws(TodoAPIError) -> PlainHTTPClient.Response? {
        if head == nil {
            guard let end = Self.find([13, 10, 13, 10], in: bytes, from: 0) else {
                if atEnd && !bytes.isEmpty && !bytes.starts(with: Array("HTTP/".utf8).prefix(bytes.count)) {
                    throw .transport("the server sent something that is not HTTP")
                }
                return nil
            }
            let parsed = try Self.parseHead(bytes[..<end])
            // An interim answer (100 Continue) comes before the real one: drop it.
            if (100..<200).contains(parsed.status) {
                bytes.removeFirst(end + 4)
                return try complete(atEnd: atEnd)
            }
            head = (parsed.status, parsed.headers, end + 4)
        }
        guard let head else { return nil }
        let body = bytes[head.bodyStart...]
        func value(_ name: String) -> String? {
            head.headers.last { $0.name.lowercased() == name }?.value.trimmingCharacters(in: .whitespaces)
        }
        if let encoding = value("transfer-encoding"), encoding.lowercased().contains("chunked") {
            guard let decoded = try Self.decodeChunked(body) else {
                if atEnd { throw .transport("the connection was closed before an answer") }
                return nil
            }
            return .init(status: head.status, headers: head.headers, body: decoded)
        }
        if let lengthText = value("content-length") {
            guard let length = Int(lengthText), length >= 0, length <= PlainHTTPClient.maxBodySize else {
                throw .transport("the server sent something that is not HTTP")
            }
            if body.count >= length { return .init(status: head.status, headers: head.headers, body: Array(body.prefix(length))) }
            if atEnd { throw .transport("the connection was closed before an answer") }
            return nil
        }
        if head.status == 204 || head.status == 304 { return .init(status: head.status, headers: head.headers, body: []) }
        return atEnd ? .init(status: head.status, headers: head.headers, body: Array(body)) : nil
    }

    static func parseHead(_ head: ArraySlice<UInt8>) throws(TodoAPIError) -> (status: Int, headers: [(name: String, value: String)]) {
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), statusParts[1].count == 3,
              let status = Int(statusParts[1]), (100...599).contains(status) else {
            throw .transport("the server sent something that is not HTTP")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw .transport("the server sent something that is not HTTP") }
            headers.append((String(line[..<colon]), String(line[line.index(after: colon)...])))
        }
        return (status, headers)
    }

    /// The decoded body when every chunk (and the last, empty one) has arrived; nil otherwise.
    static func decodeChunked(_ body: ArraySlice<UInt8>) throws(TodoAPIError) -> [UInt8]? {
        var decoded: [UInt8] = []
        var index = body.startIndex
        while true {
            guard let lineEnd = find([13, 10], in: body, from: index) else { return nil }
            let sizeText = String(decoding: body[index..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0,
                  size <= PlainHTTPClient.maxBodySize - decoded.count else {
                throw .transport("the server sent something that is not HTTP")
            }
            let dataStart = lineEnd + 2
            if size == 0 {
                // Trailers, if any, end with an empty line.
                return find([13, 10, 13, 10], in: body, from: lineEnd) != nil ? decoded : nil
            }
            guard body.endIndex - dataStart >= size + 2 else { return nil }
            decoded.append(contentsOf: body[dataStart..<(dataStart + size)])
            guard body[dataStart + size] == 13, body[dataStart + size + 1] == 10 else {
                throw .transport("the server sent something that is not HTTP")
            }
            index = dataStart + size + 2
        }
    }

    static func find<C: RandomAccessCollection>(_ needle: [UInt8], in haystack: C, from start: C.Index) -> C.Index?
    where C.Element == UInt8, C.Index == Int {
        guard haystack.endIndex - start >= needle.count else { return nil }
        var index = start
        while index <= haystack.endIndex - needle.count {
            if haystack[index] == needle[0] && haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
