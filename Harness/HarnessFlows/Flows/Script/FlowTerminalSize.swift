/// A terminal size written `COLSxROWS` in a flow (`80x24`).
public struct FlowTerminalSize: Sendable, Hashable, CustomStringConvertible {
    /// The number of columns.
    public var columns: Int
    /// The number of rows.
    public var rows: Int

    /// Creates a size.
    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    /// The largest accepted dimension, to catch typos such as `800x240000`.
    public static let maximumDimension = 4096

    /// Parses `COLSxROWS` (both between 1 and ``maximumDimension``); nil when malformed.
    public init?(parsing text: String) {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2,
              parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) && $0.count <= 5 }),
              let columns = Int(parts[0]), let rows = Int(parts[1]),
              (1...Self.maximumDimension).contains(columns), (1...Self.maximumDimension).contains(rows)
        else { return nil }
        self.init(columns: columns, rows: rows)
    }

    /// `COLSxROWS`.
    public var description: String { "\(columns)x\(rows)" }
}

extension Character {
    /// True for `0`...`9` only (not other Unicode digits).
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
