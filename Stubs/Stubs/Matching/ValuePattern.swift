/// How a query parameter or header value must look. A string literal means `.equalTo`.
public enum ValuePattern: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The value equals this string.
    case equalTo(String)
    /// The value contains this string.
    case contains(String)
    /// The whole value matches this regular expression.
    case matches(String)
    /// The parameter or header is present, with any value.
    case present
    /// The parameter or header is absent.
    case absent

    /// An exact value.
    public init(stringLiteral value: String) { self = .equalTo(value) }

    /// An exact value built by interpolation.
    public init(stringInterpolation: DefaultStringInterpolation) { self = .equalTo(String(stringInterpolation: stringInterpolation)) }

    /// Whether the values found (all values of that name, possibly none) satisfy the pattern.
    public func matches(_ values: [String]) -> Bool {
        switch self {
        case .absent: return values.isEmpty
        case .present: return !values.isEmpty
        case .equalTo(let expected): return values.contains(expected)
        case .contains(let part): return values.contains { $0.contains(part) }
        case .matches(let pattern): return values.contains { RegexCache.wholeMatch(pattern, $0) }
        }
    }

    /// `= "x"`, `contains "x"`, `~ /x/`, `present`, `absent`.
    public var description: String {
        switch self {
        case .equalTo(let value): return "= \"\(value)\""
        case .contains(let value): return "contains \"\(value)\""
        case .matches(let pattern): return "matches /\(pattern)/"
        case .present: return "present"
        case .absent: return "absent"
        }
    }
}
