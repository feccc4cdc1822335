import Foundation

/// Turns a status, headers and body into HTTP/1.1 response bytes.
enum HTTPResponseSerializer {
    /// Serializes one response.
    ///
    /// - Parameters:
    ///   - headOnly: the request was HEAD: headers (with the would-be length), no body.
    ///   - keepAlive: false adds `Connection: close`.
    ///   - chunkSize: non-nil sends the body with `Transfer-Encoding: chunked` in chunks of that size.
    static func serialize(
        status: Int, headers: HTTPHeaders, body: [UInt8], headOnly: Bool, keepAlive: Bool,
        chunkSize: Int? = nil
    ) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(HTTPStatus.reasonPhrase(status))\r\n"
        let bodyAllowed = !HTTPStatus.forbidsBody(status)
        var hasContentType = false
        for field in headers {
            // The server owns framing headers.
            if field.name.caseInsensitiveEquals("Content-Length") || field.name.caseInsensitiveEquals("Transfer-Encoding")
                || field.name.caseInsensitiveEquals("Connection") {
                continue
            }
            if field.name.caseInsensitiveEquals("Content-Type") { hasContentType = true }
            head += "\(field.name): \(field.value)\r\n"
        }
        if !hasContentType && bodyAllowed && !body.isEmpty {
            head += "Content-Type: application/octet-stream\r\n"
        }
        let chunked = bodyAllowed && chunkSize != nil
        if chunked {
            head += "Transfer-Encoding: chunked\r\n"
        } else if bodyAllowed {
            head += "Content-Length: \(body.count)\r\n"
        }
        if !keepAlive { head += "Connection: close\r\n" }
        head += "\r\n"
        var bytes = Array(head.utf8)
        guard bodyAllowed && !headOnly else { return bytes }
        if let chunkSize, chunked {
            let size = max(1, chunkSize)
            var offset = 0
            bytes.reserveCapacity(bytes.count + body.count + (body.count / size + 2) * 12)
            while offset < body.count {
                let end = min(body.count, offset + size)
                bytes += Array("\(String(end - offset, radix: 16))\r\n".utf8)
                bytes += body[offset..<end]
                bytes += [0x0D, 0x0A]
                offset = end
            }
            bytes += Array("0\r\n\r\n".utf8)
        } else {
            bytes += body
        }
        return bytes
    }

    /// A short plain-text error response that closes the connection.
    static func errorResponse(status: Int, message: String) -> [UInt8] {
        serialize(
            status: status, headers: ["Content-Type": "text/plain; charset=utf-8"],
            body: Array((message + "\n").utf8), headOnly: false, keepAlive: false
        )
    }

    /// The interim `100 Continue` response.
    static let continueResponse = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
}
