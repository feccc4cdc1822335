/// One cell of the screen as a snapshot shows it.
public struct Cell: Sendable, Hashable {
    /// The grapheme shown: " " for a blank cell, "" for the right half of a wide character,
    /// possibly several scalars (a base character and its combining marks).
    public var character: String
    /// Columns the character takes: 1, 2 for a wide character, 0 for the right half of one.
    public var width: Int
    /// Colors and attributes.
    public var attributes: CellAttributes

    /// Creates a cell.
    public init(character: String, width: Int = 1, attributes: CellAttributes = .plain) {
        self.character = character
        self.width = width
        self.attributes = attributes
    }

    /// A blank, plain cell.
    public static let blank = Cell(character: " ")
}
