import Foundation

/// An HTTP response a stub sends: status, headers, body, and how it is delivered.
///
/// ```swift
/// try StubResponse.json(todos)
/// StubResponse.status(500).withHeader("Retry-After", "1")
/// StubResponse.text("slow").delayed(by: .milliseconds(300)).throttled(bytes: 4, every: .milliseconds(10))
/// ```
public struct StubResponse: Sendable, Hashable {
    /// Where the body comes from.
    public enum Body: Sendable, Hashable {
        /// No body.
        case empty
        /// UTF-8 text.
        case text(String)
        /// Raw bytes.
        case bytes(Data)
        /// A file read when the response is sent (a missing file answers 500 saying so).
        case file(URL)
        /// A mapping's `bodyFile`: read when the response is sent, after checking again that it
        /// is a regular file inside its folder (otherwise 500 saying why).
        case bodyFile(StubBodyFile)
    }

    /// A slow body: `bytes` bytes every `interval`.
    public struct Throttle: Sendable, Hashable {
        /// Bytes per write (at least 1).
        public var bytes: Int
        /// The pause between writes.
        public var interval: Duration

        /// Creates a throttle.
        public init(bytes: Int, interval: Duration) {
            self.bytes = max(1, bytes)
            self.interval = interval
        }
    }

    /// The status code.
    public var status: Int
    /// Headers to send (the server sets Content-Length, Transfer-Encoding and Connection itself).
    public var headers: HTTPHeaders
    /// The body.
    public var body: Body
    /// Non-nil sends the body with `Transfer-Encoding: chunked`, in chunks of this many bytes.
    public var chunkSize: Int?
    /// A pause after the request arrived and before anything is sent.
    public var delay: Duration?
    /// Non-nil sends the response slowly.
    public var throttle: Throttle?

    /// Creates a response.
    public init(
        status: Int = 200, headers: HTTPHeaders = [:], body: Body = .empty, chunkSize: Int? = nil,
        delay: Duration? = nil, throttle: Throttle? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.chunkSize = chunkSize
        self.delay = delay
        self.throttle = throttle
    }

    // MARK: - Builders

    /// An empty response with `status`.
    public static func status(_ status: Int) -> StubResponse { StubResponse(status: status) }

    /// A UTF-8 text body.
    public static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8") -> StubResponse {
        StubResponse(status: status, headers: ["Content-Type": contentType], body: .text(text))
    }

    /// A byte body.
    public static func bytes(_ data: Data, status: Int = 200, contentType: String = "application/octet-stream") -> StubResponse {
        StubResponse(status: status, headers: ["Content-Type": contentType], body: .bytes(data))
    }

    /// The contents of a file, read each time the response is sent. The content type defaults from the extension.
    public static func file(_ url: URL, status: Int = 200, contentType: String? = nil) -> StubResponse {
        StubResponse(
            status: status, headers: ["Content-Type": contentType ?? Self.contentType(forExtension: url.pathExtension)],
            body: .file(url)
        )
    }

    /// The JSON encoding of `value` with `Content-Type: application/json`.
    public static func json<Value: Encodable>(
        _ value: Value, status: Int = 200, encoder: JSONEncoder = JSONEncoder()
    ) throws -> StubResponse {
        StubResponse(status: status, headers: ["Content-Type": "application/json"], body: .bytes(try encoder.encode(value)))
    }

    /// JSON text sent as is (handy for invalid JSON too) with `Content-Type: application/json`.
    public static func json(text: String, status: Int = 200) -> StubResponse {
        StubResponse(status: status, headers: ["Content-Type": "application/json"], body: .text(text))
    }

    // MARK: - Modifiers

    /// The same response with another status.
    public func withStatus(_ status: Int) -> StubResponse {
        var copy = self
        copy.status = status
        return copy
    }

    /// The same response with header `name` set to `value` (replacing earlier values).
    public func withHeader(_ name: String, _ value: String) -> StubResponse {
        var copy = self
        copy.headers.set(name, value)
        return copy
    }

    /// The same response sent after `delay`.
    public func delayed(by delay: Duration) -> StubResponse {
        var copy = self
        copy.delay = delay
        return copy
    }

    /// The same response with a chunked body, `chunkSize` bytes per chunk.
    public func chunked(chunkSize: Int = 1024) -> StubResponse {
        var copy = self
        copy.chunkSize = max(1, chunkSize)
        return copy
    }

    /// The same response written `bytes` bytes every `interval` (status line and headers included).
    public func throttled(bytes: Int, every interval: Duration) -> StubResponse {
        var copy = self
        copy.throttle = Throttle(bytes: bytes, interval: interval)
        return copy
    }

    // MARK: - Body bytes

    /// The body bytes, or a message saying why the file could not be read.
    func bodyBytes() -> Result<[UInt8], StubFileError> {
        switch body {
        case .empty: return .success([])
        case .text(let text): return .success(Array(text.utf8))
        case .bytes(let data): return .success(Array(data))
        case .file(let url):
            do {
                return .success(Array(try Data(contentsOf: url)))
            } catch {
                return .failure(StubFileError(url: url, reason: error.localizedDescription))
            }
        case .bodyFile(let file):
            do {
                return .success(Array(try file.read()))
            } catch {
                return .failure(StubFileError(url: URL(fileURLWithPath: file.root).appendingPathComponent(file.path), reason: error.description))
            }
        }
    }

    static func contentType(forExtension pathExtension: String) -> String {
        switch pathExtension.lowercased() {
        case "json": return "application/json"
        case "txt", "text": return "text/plain; charset=utf-8"
        case "html", "htm": return "text/html; charset=utf-8"
        case "xml": return "application/xml"
        case "csv": return "text/csv"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        default: return "application/octet-stream"
        }
    }
}

/// A stub's body file could not be read when its response was due.
public struct StubFileError: Error, Sendable, CustomStringConvertible {
    /// The file.
    public let url: URL
    /// Why it could not be read.
    public let reason: String
    /// `stub body file /x/todos.json cannot be read: ...`.
    public var description: String { "stub body file \(url.path) cannot be read: \(reason)" }
}
