/// A regular-expression match on one screen row.
public struct ScreenMatch: Sendable, Hashable {
    /// Where the match starts.
    public var position: ScreenPosition
    /// The matched text.
    public var text: String

    /// Creates a match.
    public init(position: ScreenPosition, text: String) {
        self.position = position
        self.text = text
    }
}
