import Foundation

/// One request the server received, as the journal keeps it.
public struct RecordedRequest: Sendable, Hashable, CustomStringConvertible {
    /// One query parameter, percent- and `+`-decoded; a bare `?flag` has an empty value.
    public struct QueryItem: Sendable, Hashable {
        /// The parameter name.
        public var name: String
        /// The parameter value.
        public var value: String
    }

    /// 1 for the first request journaled since the server started or the journal was cleared.
    public let sequenceNumber: Int
    /// The method, e.g. `GET`.
    public let method: String
    /// The request target as sent, e.g. `/todos?done=1`.
    public let target: String
    /// The path part of the target, as sent (not percent-decoded), e.g. `/todos`.
    public let path: String
    /// The query parameters in order.
    public let query: [QueryItem]
    /// The header fields in order.
    public let headers: HTTPHeaders
    /// The body (de-chunked).
    public let body: Data
    /// When the request was complete.
    public let receivedAt: Date
    /// The stub that answered, or nil when none matched (the client got a 404 near-miss report).
    public let stubID: StubID?

    /// Creates a recorded request; the server makes these, tests may too.
    public init(
        sequenceNumber: Int = 0, method: String, target: String, headers: HTTPHeaders = [:],
        body: Data = Data(), receivedAt: Date = Date(), stubID: StubID? = nil
    ) {
        self.sequenceNumber = sequenceNumber
        self.method = method
        self.target = target
        let (path, query) = Self.split(target: target)
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.receivedAt = receivedAt
        self.stubID = stubID
    }

    /// The body as UTF-8 text, or nil when it is not valid UTF-8.
    public var bodyText: String? { String(data: body, encoding: .utf8) }

    /// The first value of query parameter `name`, or nil.
    public func queryValue(_ name: String) -> String? { query.first { $0.name == name }?.value }

    /// The same request answered by another stub.
    func answered(by stubID: StubID?, sequenceNumber: Int) -> RecordedRequest {
        RecordedRequest(
            sequenceNumber: sequenceNumber, method: method, target: target, headers: headers, body: body,
            receivedAt: receivedAt, stubID: stubID
        )
    }

    /// `#3 GET /todos?done=1 (stub abc)`.
    public var description: String { description(naming: [:]) }

    /// `#3 GET /todos?done=1 (stub GET /todos)`: the answering stub by its route in `routes`
    /// when its id was generated (a UUID says nothing a reader can use), by its id otherwise.
    func description(naming routes: [StubID: String]) -> String {
        let answer = stubID.map { id in
            id.isGenerated ? routes[id].map { "stub \($0)" } ?? "stub \(id)" : "stub \(id)"
        } ?? "no stub matched"
        return "#\(sequenceNumber) \(method) \(target) (\(answer))"
    }

    /// Splits a request target into its path and decoded query items.
    static func split(target: String) -> (String, [QueryItem]) {
        var rest = Substring(target)
        // Absolute form: drop scheme and authority.
        if let schemeEnd = rest.range(of: "://") {
            rest = rest[schemeEnd.upperBound...]
            rest = rest.firstIndex(of: "/").map { rest[$0...] } ?? "/"
        }
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        guard let question = rest.firstIndex(of: "?") else { return (String(rest), []) }
        let path = String(rest[..<question])
        let queryText = rest[rest.index(after: question)...]
        let items = queryText.split(separator: "&", omittingEmptySubsequences: true).map { pair -> QueryItem in
            if let equals = pair.firstIndex(of: "=") {
                return QueryItem(name: decode(pair[..<equals]), value: decode(pair[pair.index(after: equals)...]))
            }
            return QueryItem(name: decode(pair), value: "")
        }
        return (path, items)
    }

    private static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
