import Foundation

/// An incremental HTTP/1.x request parser.
///
/// Feed it whatever bytes arrived (any split, one byte at a time is fine) through an
/// `InputBuffer` and call `next(in:)` until it returns nil ("need more bytes"). It never traps:
/// every malformed input becomes a `.failure` carrying the status to answer before closing.
struct HTTPRequestParser {
    /// Size limits.
    struct Limits: Sendable {
        /// The request line plus headers (and chunked trailers) may not exceed this: 431.
        var maxHeaderBytes = 64 * 1024
        /// The body may not exceed this: 413.
        var maxBodyBytes = 8 * 1024 * 1024
    }

    /// What the parser found.
    enum Event {
        /// The client sent `Expect: 100-continue` and waits for an interim response.
        case expectContinue
        /// A complete request.
        case request(HTTPRequest)
        /// The input is malformed or too large; answer `status` and close.
        case failure(HTTPParseFailure)
    }

    private enum State {
        case head(scanned: Int)
        case fixedBody(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers(bytes: Int)
        case failed
    }

    let limits: Limits
    private var state: State = .head(scanned: 0)
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var continueSent = false

    /// Creates a parser with `limits`.
    init(limits: Limits = Limits()) { self.limits = limits }

    /// Whether a request has started but is not complete (bytes of it were consumed or are waiting).
    var isMidRequest: Bool {
        if case .head(let scanned) = state { return scanned > 0 }
        if case .failed = state { return false }
        return true
    }

    /// Consumes bytes from `buffer` and returns the next event, or nil when more bytes are needed.
    mutating func next(in buffer: inout InputBuffer) -> Event? {
        while true {
            switch state {
            case .failed:
                return nil

            case .head(let scanned):
                // Ignore empty lines before a request line (RFC 9112 section 2.2).
                if scanned == 0 {
                    while !buffer.isEmpty && (buffer[0] == 0x0D || buffer[0] == 0x0A) {
                        if buffer[0] == 0x0D && buffer.count < 2 { return nil }
                        if buffer[0] == 0x0D && buffer[1] != 0x0A { return fail(400, "stray carriage return") }
                        buffer.consume(buffer[0] == 0x0D ? 2 : 1)
                    }
                }
                guard let headLength = findEndOfHead(in: buffer, from: scanned) else {
                    if buffer.count > limits.maxHeaderBytes {
                        return fail(431, "the request line and headers exceed \(limits.maxHeaderBytes) bytes")
                    }
                    state = .head(scanned: max(0, buffer.count - 3))
                    return nil
                }
                if headLength > limits.maxHeaderBytes {
                    return fail(431, "the request line and headers exceed \(limits.maxHeaderBytes) bytes")
                }
                let parsed = Self.parseHead(buffer.bytes(0..<headLength))
                buffer.consume(headLength)
                switch parsed {
                case .failure(let failure):
                    state = .failed
                    return .failure(failure)
                case .success(let parsedHead):
                    head = parsedHead
                    body = []
                    continueSent = false
                    switch parsedHead.framing {
                    case .none:
                        return finish()
                    case .contentLength(let length):
                        if length > limits.maxBodyBytes {
                            return fail(413, "the body of \(length) bytes exceeds the limit of \(limits.maxBodyBytes) bytes")
                        }
                        if length == 0 { return finish() }
                        body.reserveCapacity(length)
                        state = .fixedBody(remaining: length)
                    case .chunked:
                        state = .chunkSize
                    }
                    if parsedHead.expectsContinue && buffer.isEmpty {
                        continueSent = true
                        return .expectContinue
                    }
                }

            case .fixedBody(let remaining):
                if buffer.isEmpty { return nil }
                let take = min(remaining, buffer.count)
                body.append(contentsOf: buffer.bytes(0..<take))
                buffer.consume(take)
                if take == remaining { return finish() }
                state = .fixedBody(remaining: remaining - take)
                return nil

            case .chunkSize:
                guard let newline = buffer.firstIndex(of: 0x0A, from: 0) else {
                    if buffer.count > 1024 { return fail(400, "chunk size line longer than 1024 bytes") }
                    return nil
                }
                if newline > 1024 { return fail(400, "chunk size line longer than 1024 bytes") }
                let line = buffer.bytes(0..<newline)
                buffer.consume(newline + 1)
                guard let size = Self.parseChunkSize(line) else {
                    return fail(400, "malformed chunk size line")
                }
                if size == 0 {
                    state = .trailers(bytes: 0)
                } else {
                    if size > limits.maxBodyBytes - body.count {
                        return fail(413, "the chunked body exceeds the limit of \(limits.maxBodyBytes) bytes")
                    }
                    state = .chunkData(remaining: size)
                }

            case .chunkData(let remaining):
                if buffer.isEmpty { return nil }
                let take = min(remaining, buffer.count)
                body.append(contentsOf: buffer.bytes(0..<take))
                buffer.consume(take)
                state = take == remaining ? .chunkDataEnd : .chunkData(remaining: remaining - take)

            case .chunkDataEnd:
                if buffer.isEmpty { return nil }
                if buffer[0] == 0x0A {
                    buffer.consume(1)
                } else if buffer[0] == 0x0D {
                    if buffer.count < 2 { return nil }
                    guard buffer[1] == 0x0A else { return fail(400, "chunk data not followed by CRLF") }
                    buffer.consume(2)
                } else {
                    return fail(400, "chunk data longer than its declared size")
                }
                state = .chunkSize

            case .trailers(let bytes):
                guard let newline = buffer.firstIndex(of: 0x0A, from: 0) else {
                    if bytes + buffer.count > limits.maxHeaderBytes {
                        return fail(431, "chunked trailers exceed \(limits.maxHeaderBytes) bytes")
                    }
                    return nil
                }
                let isEmptyLine = newline == 0 || (newline == 1 && buffer[0] == 0x0D)
                buffer.consume(newline + 1)
                if isEmptyLine { return finish() }
                if bytes + newline + 1 > limits.maxHeaderBytes {
                    return fail(431, "chunked trailers exceed \(limits.maxHeaderBytes) bytes")
                }
                state = .trailers(bytes: bytes + newline + 1)
            }
        }
    }

    private mutating func finish() -> Event {
        let request = HTTPRequest(head: head!, body: body)
        head = nil
        body = []
        state = .head(scanned: 0)
        return .request(request)
    }

    private mutating func fail(_ status: Int, _ reason: String) -> Event {
        state = .failed
        head = nil
        body = []
        return .failure(HTTPParseFailure(status: status, reason: reason))
    }

    /// The length of the head including its final empty line, or nil when it is not complete.
    private func findEndOfHead(in buffer: InputBuffer, from scanned: Int) -> Int? {
        var index = scanned
        while let newline = buffer.firstIndex(of: 0x0A, from: index) {
            // An empty line is "\n\n" or "\n\r\n".
            if newline + 1 < buffer.count {
                if buffer[newline + 1] == 0x0A { return newline + 2 }
                if buffer[newline + 1] == 0x0D {
                    if newline + 2 < buffer.count {
                        if buffer[newline + 2] == 0x0A { return newline + 3 }
                    } else {
                        return nil
                    }
                }
            } else {
                return nil
            }
            index = newline + 1
        }
        return nil
    }

    // MARK: - Head

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
             UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default: return false
        }
    }

    /// Splits the head into lines (CRLF or bare LF), rejecting stray CRs.
    private static func lines(of head: ArraySlice<UInt8>) -> [ArraySlice<UInt8>]? {
        var lines: [ArraySlice<UInt8>] = []
        var lineStart = head.startIndex
        var index = head.startIndex
        while index < head.endIndex {
            if head[index] == 0x0A {
                var lineEnd = index
                if lineEnd > lineStart && head[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                let line = head[lineStart..<lineEnd]
                if line.contains(0x0D) { return nil }
                lines.append(line)
                lineStart = index + 1
            }
            index += 1
        }
        // The last line is the empty terminator.
        if let last = lines.last, last.isEmpty { lines.removeLast() }
        return lines
    }

    static func parseHead(_ bytes: ArraySlice<UInt8>) -> Result<HTTPRequestHead, HTTPParseFailure> {
        func failure(_ status: Int, _ reason: String) -> Result<HTTPRequestHead, HTTPParseFailure> {
            .failure(HTTPParseFailure(status: status, reason: reason))
        }
        guard let lines = lines(of: bytes), let requestLine = lines.first else {
            return failure(400, "malformed line ending in the request head")
        }
        // Request line: method SP target SP version.
        let parts = requestLine.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return failure(400, "malformed request line") }
        let methodBytes = parts[0], targetBytes = parts[1], versionBytes = parts[2]
        guard !methodBytes.isEmpty, methodBytes.allSatisfy(isTokenByte) else {
            return failure(400, "malformed method in the request line")
        }
        guard !targetBytes.isEmpty, targetBytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return failure(400, "malformed request target")
        }
        let version = Array(versionBytes)
        let prefix = Array("HTTP/".utf8)
        guard version.count == 8, Array(version[0..<5]) == prefix, version[6] == UInt8(ascii: "."),
              (0x30...0x39).contains(version[5]), (0x30...0x39).contains(version[7])
        else { return failure(400, "malformed HTTP version in the request line") }
        guard version[5] == UInt8(ascii: "1") else {
            return failure(505, "only HTTP/1.0 and HTTP/1.1 are supported")
        }
        // A higher minor version (HTTP/1.6) is read as the highest one implemented (RFC 9110 section 2.5).
        let minorVersion = min(1, Int(version[7] - 0x30))
        let target = String(decoding: targetBytes, as: UTF8.self)
        if target.first != "/" && target != "*" && !target.lowercased().hasPrefix("http://")
            && !target.lowercased().hasPrefix("https://") {
            return failure(400, "malformed request target")
        }

        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            guard let first = line.first else { continue }
            if first == 0x20 || first == 0x09 { return failure(400, "obsolete header line folding") }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                return failure(400, "header line without a colon")
            }
            let name = line[line.startIndex..<colon]
            guard !name.isEmpty, name.allSatisfy(isTokenByte) else {
                return failure(400, "malformed header name")
            }
            var value = line[(colon + 1)...]
            while let byte = value.first, byte == 0x20 || byte == 0x09 { value = value.dropFirst() }
            while let byte = value.last, byte == 0x20 || byte == 0x09 { value = value.dropLast() }
            guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
                return failure(400, "control character in a header value")
            }
            headers.add(String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
        }

        // Framing.
        var framing = HTTPRequestHead.BodyFraming.none
        let transferEncodings = headers.values(for: "Transfer-Encoding")
        let contentLengths = headers.values(for: "Content-Length")
        if !transferEncodings.isEmpty {
            if !contentLengths.isEmpty {
                return failure(400, "both Transfer-Encoding and Content-Length")
            }
            let codings = transferEncodings.joined(separator: ",").split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard codings.last == "chunked" else {
                return failure(400, "Transfer-Encoding does not end with chunked")
            }
            guard codings.count == 1 else {
                return failure(501, "unsupported transfer coding \(codings.joined(separator: ", "))")
            }
            framing = .chunked
        } else if !contentLengths.isEmpty {
            let values = contentLengths.joined(separator: ",").split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard let first = values.first, values.allSatisfy({ $0 == first }),
                  !first.isEmpty, first.utf8.allSatisfy({ (0x30...0x39).contains($0) })
            else { return failure(400, "malformed Content-Length") }
            guard first.utf8.count <= 15, let length = Int(first) else {
                return failure(413, "Content-Length \(first) is too large")
            }
            framing = .contentLength(length)
        }

        let connectionTokens = headers.values(for: "Connection").joined(separator: ",").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let keepAlive: Bool
        if connectionTokens.contains("close") {
            keepAlive = false
        } else {
            keepAlive = minorVersion >= 1 || connectionTokens.contains("keep-alive")
        }

        var expectsContinue = false
        if let expect = headers["Expect"] {
            guard expect.lowercased() == "100-continue" else {
                return failure(417, "unsupported expectation \(expect)")
            }
            expectsContinue = minorVersion >= 1 && framing != .none && framing != .contentLength(0)
        }

        return .success(HTTPRequestHead(
            method: String(decoding: methodBytes, as: UTF8.self),
            target: target,
            minorVersion: minorVersion,
            headers: headers,
            keepAlive: keepAlive,
            expectsContinue: expectsContinue,
            framing: framing
        ))
    }

    /// Parses `1a;ext=1\r` into 26; nil when malformed or over 2^60.
    static func parseChunkSize(_ line: ArraySlice<UInt8>) -> Int? {
        var line = line
        if line.last == 0x0D { line = line.dropLast() }
        if let semicolon = line.firstIndex(of: UInt8(ascii: ";")) { line = line[line.startIndex..<semicolon] }
        while let byte = line.last, byte == 0x20 || byte == 0x09 { line = line.dropLast() }
        guard !line.isEmpty, line.count <= 15 else { return nil }
        var value = 0
        for byte in line {
            let digit: Int
            switch byte {
            case 0x30...0x39: digit = Int(byte - 0x30)
            case 0x41...0x46: digit = Int(byte - 0x41 + 10)
            case 0x61...0x66: digit = Int(byte - 0x61 + 10)
            default: return nil
            }
            value = value * 16 + digit
        }
        return value
    }
}
