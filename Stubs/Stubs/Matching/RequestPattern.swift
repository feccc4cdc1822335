import Foundation

/// What a request must look like to match a stub or a verification.
///
/// ```swift
/// RequestPattern.get("/todos").withQuery("page", "2").withHeader("Accept", .contains("json"))
/// RequestPattern.post(.prefix("/api/")).withBody(.jsonEqual(#"{"done": true}"#))
/// ```
/// Every condition must hold; conditions left out match anything.
public struct RequestPattern: Sendable, Hashable, CustomStringConvertible {
    /// A condition on a named query parameter or header.
    public struct NamedCondition: Sendable, Hashable {
        /// The parameter or header name (headers compare names without case).
        public var name: String
        /// What its value must look like.
        public var pattern: ValuePattern
    }

    /// The method (compared without case), or nil for any.
    public var method: String?
    /// The path condition, or nil for any.
    public var path: PathPattern?
    /// Query parameter conditions.
    public var query: [NamedCondition]
    /// Header conditions.
    public var headers: [NamedCondition]
    /// The body condition, or nil for any.
    public var body: BodyPattern?

    /// Creates a pattern from its parts.
    public init(
        method: String? = nil, path: PathPattern? = nil, query: [String: ValuePattern] = [:],
        headers: [String: ValuePattern] = [:], body: BodyPattern? = nil
    ) {
        self.method = method?.uppercased()
        self.path = path
        self.query = query.sorted { $0.key < $1.key }.map { NamedCondition(name: $0.key, pattern: $0.value) }
        self.headers = headers.sorted { $0.key < $1.key }.map { NamedCondition(name: $0.key, pattern: $0.value) }
        self.body = body
    }

    // MARK: - Builders

    /// Matches every request.
    public static var any: RequestPattern { RequestPattern() }
    /// Any method on `path`.
    public static func path(_ path: PathPattern) -> RequestPattern { RequestPattern(path: path) }
    /// `method` on `path` (any path when nil).
    public static func method(_ method: String, _ path: PathPattern? = nil) -> RequestPattern {
        RequestPattern(method: method, path: path)
    }
    /// GET on `path`.
    public static func get(_ path: PathPattern) -> RequestPattern { method("GET", path) }
    /// POST on `path`.
    public static func post(_ path: PathPattern) -> RequestPattern { method("POST", path) }
    /// PUT on `path`.
    public static func put(_ path: PathPattern) -> RequestPattern { method("PUT", path) }
    /// PATCH on `path`.
    public static func patch(_ path: PathPattern) -> RequestPattern { method("PATCH", path) }
    /// DELETE on `path`.
    public static func delete(_ path: PathPattern) -> RequestPattern { method("DELETE", path) }
    /// HEAD on `path`.
    public static func head(_ path: PathPattern) -> RequestPattern { method("HEAD", path) }
    /// OPTIONS on `path`.
    public static func options(_ path: PathPattern) -> RequestPattern { method("OPTIONS", path) }

    /// Adds a query parameter condition (a string literal means equal to).
    public func withQuery(_ name: String, _ pattern: ValuePattern) -> RequestPattern {
        var copy = self
        copy.query.append(NamedCondition(name: name, pattern: pattern))
        return copy
    }

    /// Adds a header condition (a string literal means equal to; names ignore case).
    public func withHeader(_ name: String, _ pattern: ValuePattern) -> RequestPattern {
        var copy = self
        copy.headers.append(NamedCondition(name: name, pattern: pattern))
        return copy
    }

    /// Sets the body condition.
    public func withBody(_ body: BodyPattern) -> RequestPattern {
        var copy = self
        copy.body = body
        return copy
    }

    // MARK: - Matching

    /// Whether `request` satisfies every condition.
    public func matches(_ request: RecordedRequest) -> Bool { differences(from: request).isEmpty }

    /// Every condition `request` fails, empty when it matches.
    public func differences(from request: RecordedRequest) -> [MatchDifference] {
        var differences: [MatchDifference] = []
        if let method, !method.caseInsensitiveEquals(request.method) {
            differences.append(MatchDifference(field: .method, detail: "expected \(method), was \(request.method)"))
        }
        if let path, !path.matches(request.path) {
            differences.append(MatchDifference(field: .path, detail: "expected \(path.expectation), was \"\(request.path)\""))
        }
        for condition in query {
            let values = request.query.filter { $0.name == condition.name }.map(\.value)
            if !condition.pattern.matches(values) {
                differences.append(MatchDifference(
                    field: .query(condition.name),
                    detail: "expected \(condition.pattern), was \(Self.describe(values))"
                ))
            }
        }
        for condition in headers {
            let values = request.headers.values(for: condition.name)
            if !condition.pattern.matches(values) {
                differences.append(MatchDifference(
                    field: .header(condition.name),
                    detail: "expected \(condition.pattern), was \(Self.describe(values))"
                ))
            }
        }
        if let body, let difference = body.difference(from: request.body) {
            differences.append(MatchDifference(field: .body, detail: difference))
        }
        return differences
    }

    /// How far `request` is from this pattern: 0 when it matches; larger is further.
    func distance(to request: RecordedRequest) -> Double {
        let differences = differences(from: request)
        var distance = differences.reduce(0) { $0 + $1.weight }
        if differences.contains(where: { $0.field == .path }), let path {
            distance += Similarity.distance(path.literal, request.path)
        }
        return distance
    }

    private static func describe(_ values: [String]) -> String {
        switch values.count {
        case 0: return "absent"
        case 1: return "\"\(values[0])\""
        default: return "[" + values.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        }
    }

    /// `GET /todos ?page = "2" [Accept contains "json"] body contains "x"`.
    public var description: String {
        var parts: [String] = [method ?? "ANY", path?.description ?? "(any path)"]
        for condition in query { parts.append("?\(condition.name) \(condition.pattern)") }
        for condition in headers { parts.append("[\(condition.name) \(condition.pattern)]") }
        if let body { parts.append(body.description) }
        return parts.joined(separator: " ")
    }
}

/// String similarity for ranking near misses.
enum Similarity {
    /// Normalized Levenshtein distance in 0...1 (0 = equal), on at most 200 characters each.
    static func distance(_ left: String, _ right: String) -> Double {
        let a = Array(left.utf8.prefix(200)), b = Array(right.utf8.prefix(200))
        if a.isEmpty && b.isEmpty { return 0 }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...max(1, a.count) where !a.isEmpty {
            current[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        let edits = a.isEmpty ? b.count : previous[b.count]
        return Double(edits) / Double(max(a.count, b.count))
    }
}
