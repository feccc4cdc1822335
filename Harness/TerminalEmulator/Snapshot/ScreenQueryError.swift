/// Why a screen query could not run.
public enum ScreenQueryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The pattern given to `find(regex:)` is not a valid regular expression.
    case invalidRegex(pattern: String, reason: String)
    /// A ``ScreenArea`` is not on the screen (named by its description): an anchor text is
    /// missing, no row lies between the anchors, or the rows are below the screen.
    case areaNotFound(String)

    /// A readable explanation.
    public var description: String {
        switch self {
        case let .invalidRegex(pattern, reason):
            return "invalid regular expression \(pattern.debugDescription): \(reason)"
        case .areaNotFound(let area):
            return "the screen has no \(area)"
        }
    }
}
