/// One way a request differs from a pattern, for near-miss reports.
public struct MatchDifference: Sendable, Hashable, CustomStringConvertible {
    /// The part of the request that differs.
    public enum Field: Sendable, Hashable, CustomStringConvertible {
        /// The method.
        case method
        /// The path.
        case path
        /// The named query parameter.
        case query(String)
        /// The named header.
        case header(String)
        /// The body.
        case body

        /// `method`, `path`, `query page`, `header Accept`, `body`.
        public var description: String {
            switch self {
            case .method: return "method"
            case .path: return "path"
            case .query(let name): return "query \(name)"
            case .header(let name): return "header \(name)"
            case .body: return "body"
            }
        }
    }

    /// The part that differs.
    public let field: Field
    /// What differs, e.g. `expected POST, was GET`.
    public let detail: String

    /// `method: expected POST, was GET`.
    public var description: String { "\(field): \(detail)" }

    /// How much this difference weighs when ranking near misses.
    var weight: Double {
        switch field {
        case .method: return 1
        case .path: return 1.5
        case .query, .header: return 0.5
        case .body: return 1
        }
    }
}
