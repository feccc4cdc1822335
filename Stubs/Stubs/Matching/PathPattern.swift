/// How a request path must look. A string literal means `.exact`.
///
/// Paths are compared as sent, without percent-decoding and without the query string.
public enum PathPattern: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The path equals this string.
    case exact(String)
    /// The path starts with this string.
    case prefix(String)
    /// The whole path matches this regular expression (NSRegularExpression syntax).
    case regex(String)

    /// An exact path.
    public init(stringLiteral value: String) { self = .exact(value) }

    /// An exact path built by interpolation, e.g. `"/todos/\(id)"`.
    public init(stringInterpolation: DefaultStringInterpolation) { self = .exact(String(stringInterpolation: stringInterpolation)) }

    /// Whether `path` satisfies the pattern.
    public func matches(_ path: String) -> Bool {
        switch self {
        case .exact(let expected): return path == expected
        case .prefix(let prefix): return path.hasPrefix(prefix)
        case .regex(let pattern): return RegexCache.wholeMatch(pattern, path)
        }
    }

    /// `/todos`, `/api*` or `~ ^/todos/\d+$`.
    public var description: String {
        switch self {
        case .exact(let path): return path
        case .prefix(let prefix): return "\(prefix)*"
        case .regex(let pattern): return "~\(pattern)"
        }
    }

    /// For messages: `exactly "/todos"`.
    var expectation: String {
        switch self {
        case .exact(let path): return "exactly \"\(path)\""
        case .prefix(let prefix): return "a prefix \"\(prefix)\""
        case .regex(let pattern): return "to match /\(pattern)/"
        }
    }

    /// The literal part, for similarity ranking.
    var literal: String {
        switch self {
        case .exact(let text), .prefix(let text), .regex(let text): return text
        }
    }
}
