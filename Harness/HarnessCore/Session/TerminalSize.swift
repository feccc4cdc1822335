/// The size of a terminal in character cells.
public struct TerminalSize: Sendable, Hashable, CustomStringConvertible {
    /// Number of columns (cells per row).
    public var cols: Int
    /// Number of rows.
    public var rows: Int

    /// Creates a size of `cols` columns by `rows` rows.
    public init(cols: Int, rows: Int) {
        self.cols = cols
        self.rows = rows
    }

    /// The classic 80 columns by 24 rows.
    public static let standard = TerminalSize(cols: 80, rows: 24)

    /// `"80x24"`.
    public var description: String { "\(cols)x\(rows)" }

    /// The largest accepted dimension, to catch typos such as `800x240000`.
    package static let maximumDimension = 4096

    /// Parses `COLSxROWS` as flows and asciicast resize events write it (both between 1 and
    /// ``maximumDimension``); nil when malformed.
    public init?(parsing text: String) {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2,
              parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) && $0.count <= 5 }),
              let cols = Int(parts[0]), let rows = Int(parts[1]),
              (1...Self.maximumDimension).contains(cols), (1...Self.maximumDimension).contains(rows)
        else { return nil }
        self.init(cols: cols, rows: rows)
    }
}

extension Character {
    /// True for `0`...`9` only (not other Unicode digits).
    package var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
