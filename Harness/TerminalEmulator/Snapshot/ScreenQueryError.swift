/// Why a screen query could not run.
public enum ScreenQueryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The pattern given to `find(regex:)` is not a valid regular expression.
    case invalidRegex(pattern: String, reason: String)

    /// A readable explanation.
    public var description: String {
        switch self {
        case let .invalidRegex(pattern, reason):
            return "invalid regular expression \(pattern.debugDescription): \(reason)"
        }
    }
}
