/// A cell as the screen stores it: 16 bytes, no reference, no String.
///
/// `content` is 0 for a blank, a Unicode scalar value, or `clusterFlag | index` into the
/// screen's `ClusterTable` when combining marks were attached. `link` is 0, or the index of
/// an OSC 8 hyperlink in the screen's `LinkTable` (it fills what was padding: still 16 bytes).
struct StoredCell: Equatable {
    var content: UInt32
    var foreground: UInt32
    var background: UInt32
    var flags: UInt16
    var link: UInt16 = 0

    static let clusterFlag: UInt32 = 1 << 31

    // Attribute bits.
    static let bold: UInt16 = 1 << 0
    static let dim: UInt16 = 1 << 1
    static let italic: UInt16 = 1 << 2
    static let underline: UInt16 = 1 << 3
    static let blink: UInt16 = 1 << 4
    static let inverse: UInt16 = 1 << 5
    static let hidden: UInt16 = 1 << 6
    static let strikethrough: UInt16 = 1 << 7
    static let attributeMask: UInt16 = 0x00FF
    // Width bits.
    static let wide: UInt16 = 1 << 8
    static let continuation: UInt16 = 1 << 9

    /// The plain blank cell.
    static let blank = StoredCell(content: 0, foreground: 0, background: 0, flags: 0)

    /// This cell with another hyperlink index.
    @inline(__always) func with(link: UInt16) -> StoredCell {
        var cell = self
        cell.link = link
        return cell
    }

    @inline(__always) var isContinuation: Bool { flags & Self.continuation != 0 }
    @inline(__always) var isWide: Bool { flags & Self.wide != 0 }

    // MARK: - Packed colors: 0 default, 1 << 24 | index, 2 << 24 | rgb.

    static func pack(_ color: TerminalColor) -> UInt32 {
        switch color {
        case .default: return 0
        case let .indexed(index): return 1 << 24 | UInt32(index)
        case let .rgb(r, g, b): return 2 << 24 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
        }
    }

    static func unpack(_ packed: UInt32) -> TerminalColor {
        switch packed >> 24 {
        case 1: return .indexed(UInt8(truncatingIfNeeded: packed))
        case 2: return .rgb(UInt8(truncatingIfNeeded: packed >> 16), UInt8(truncatingIfNeeded: packed >> 8), UInt8(truncatingIfNeeded: packed))
        default: return .default
        }
    }

    /// The public attributes of this cell.
    var attributes: CellAttributes {
        CellAttributes(
            foreground: Self.unpack(foreground), background: Self.unpack(background),
            bold: flags & Self.bold != 0, dim: flags & Self.dim != 0, italic: flags & Self.italic != 0,
            underline: flags & Self.underline != 0, blink: flags & Self.blink != 0,
            inverse: flags & Self.inverse != 0, hidden: flags & Self.hidden != 0,
            strikethrough: flags & Self.strikethrough != 0
        )
    }
}

extension StoredCell {
    /// The stored form of a public cell, interning a multi-scalar character in `table` and its
    /// link in `links`.
    init(_ cell: Cell, interning table: inout ClusterTable, links: inout LinkTable) {
        var flags: UInt16 = 0
        let attributes = cell.attributes
        if attributes.bold { flags |= Self.bold }
        if attributes.dim { flags |= Self.dim }
        if attributes.italic { flags |= Self.italic }
        if attributes.underline { flags |= Self.underline }
        if attributes.blink { flags |= Self.blink }
        if attributes.inverse { flags |= Self.inverse }
        if attributes.hidden { flags |= Self.hidden }
        if attributes.strikethrough { flags |= Self.strikethrough }
        if cell.width == 2 { flags |= Self.wide }
        if cell.width == 0 { flags |= Self.continuation }
        var content: UInt32 = 0
        let scalars = cell.character.unicodeScalars
        if scalars.count == 1, let scalar = scalars.first {
            content = scalar == " " ? 0 : scalar.value
        } else if scalars.count > 1, let index = table.intern(cell.character) {
            content = Self.clusterFlag | index
        }
        self.init(content: content, foreground: Self.pack(attributes.foreground),
                  background: Self.pack(attributes.background), flags: flags,
                  link: attributes.link.flatMap { links.intern($0) } ?? 0)
    }
}
