/// A place in a flow file: the file as shown to the user, a 1-based line and a 1-based column.
///
/// Columns count characters (grapheme clusters), so a position points at what an editor shows.
public struct SourcePosition: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The file as shown in messages (usually its path relative to the run root).
    public var file: String
    /// The 1-based line.
    public var line: Int
    /// The 1-based column.
    public var column: Int

    /// A position (the parser's, and a Swift step's call site).
    package init(file: String, line: Int, column: Int) {
        (self.file, self.line, self.column) = (file, line, column)
    }

    /// `file:line:column`, the form editors and compilers use.
    public var description: String { "\(file):\(line):\(column)" }
}
