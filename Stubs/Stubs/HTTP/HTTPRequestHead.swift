/// A parsed request line and header block.
struct HTTPRequestHead: Sendable {
    /// The method token, as sent (case-sensitive per RFC 9110).
    var method: String
    /// The request target, as sent (`/todos?done=1`).
    var target: String
    /// The minor version of HTTP/1.x (0 or 1).
    var minorVersion: Int
    /// The header fields.
    var headers: HTTPHeaders
    /// Whether the connection stays open after the response.
    var keepAlive: Bool
    /// Whether the client sent `Expect: 100-continue`.
    var expectsContinue: Bool
    /// How the body is delimited.
    var framing: BodyFraming

    /// How a request body is delimited.
    enum BodyFraming: Sendable, Equatable {
        case none
        case contentLength(Int)
        case chunked
    }
}

/// A complete request: head and the whole body.
struct HTTPRequest: Sendable {
    var head: HTTPRequestHead
    var body: [UInt8]
}

/// Why a request could not be parsed: the status to answer before closing.
struct HTTPParseFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The response status (400, 413, 431, 501, 505, 417).
    var status: Int
    /// What was wrong, sent as the response body.
    var reason: String

    var description: String { "\(status) \(HTTPStatus.reasonPhrase(status)): \(reason)" }
}
