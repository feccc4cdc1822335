/// The style a test expects of some text: each attribute or color that is given must hold, each
/// `nil` one is not checked.
///
/// ```swift
/// let error = TextStyle(bold: true, foreground: .named(.red))
/// error.matches(screen.cell(row: 11, col: 38).attributes)   // true for `ESC [ 1 ; 31 m`
/// error.differences(from: CellAttributes(foreground: .named(.red)))   // ["bold: expected on, found off"]
/// ```
///
/// Its ``description`` is the spelling flows use after `style`: `bold not-italic fg=red bg=#102030`.
public struct TextStyle: Sendable, Hashable, CustomStringConvertible {
    /// SGR 1, or nil to ignore it.
    public var bold: Bool?
    /// SGR 2 (faint), or nil.
    public var dim: Bool?
    /// SGR 3, or nil.
    public var italic: Bool?
    /// SGR 4 (any underline style), or nil.
    public var underline: Bool?
    /// SGR 5 or 6, or nil.
    public var blink: Bool?
    /// SGR 7 (reverse video), or nil.
    public var inverse: Bool?
    /// SGR 8 (concealed), or nil.
    public var hidden: Bool?
    /// SGR 9 (crossed out), or nil.
    public var strikethrough: Bool?
    /// The text color, or nil.
    public var foreground: TerminalColor?
    /// The background color, or nil.
    public var background: TerminalColor?
    /// The OSC 8 hyperlink's URI, "" for "no link", or nil (not checked).
    public var link: String?

    /// Creates an expectation; what is left `nil` is not checked.
    public init(
        bold: Bool? = nil, dim: Bool? = nil, italic: Bool? = nil, underline: Bool? = nil, blink: Bool? = nil,
        inverse: Bool? = nil, hidden: Bool? = nil, strikethrough: Bool? = nil,
        foreground: TerminalColor? = nil, background: TerminalColor? = nil, link: String? = nil
    ) {
        self.bold = bold
        self.dim = dim
        self.italic = italic
        self.underline = underline
        self.blink = blink
        self.inverse = inverse
        self.hidden = hidden
        self.strikethrough = strikethrough
        self.foreground = foreground
        self.background = background
        self.link = link
    }

    /// Exactly these attributes: every flag, both colors and the link are checked.
    public init(exactly attributes: CellAttributes) {
        self.init(
            bold: attributes.bold, dim: attributes.dim, italic: attributes.italic, underline: attributes.underline,
            blink: attributes.blink, inverse: attributes.inverse, hidden: attributes.hidden,
            strikethrough: attributes.strikethrough, foreground: attributes.foreground, background: attributes.background,
            link: attributes.link ?? "")
    }

    /// Plain text: no attribute, default colors, no link.
    public static let plain = TextStyle(exactly: .plain)
    /// Bold; nothing else checked.
    public static let bold = TextStyle(bold: true)
    /// Italic; nothing else checked.
    public static let italic = TextStyle(italic: true)
    /// Underlined; nothing else checked.
    public static let underline = TextStyle(underline: true)
    /// Reverse video; nothing else checked.
    public static let inverse = TextStyle(inverse: true)
    /// Faint; nothing else checked.
    public static let dim = TextStyle(dim: true)

    /// Only this text color checked.
    public static func foreground(_ color: TerminalColor) -> TextStyle { TextStyle(foreground: color) }
    /// Only this background color checked.
    public static func background(_ color: TerminalColor) -> TextStyle { TextStyle(background: color) }
    /// Only the hyperlink checked: the cells link to `uri` (OSC 8); "" expects no link.
    public static func link(_ uri: String) -> TextStyle { TextStyle(link: uri) }

    /// Both expectations at once; where both check the same thing, `other` wins:
    /// `TextStyle.bold.and(.foreground(.named(.red)))`.
    public func and(_ other: TextStyle) -> TextStyle {
        TextStyle(
            bold: other.bold ?? bold, dim: other.dim ?? dim, italic: other.italic ?? italic,
            underline: other.underline ?? underline, blink: other.blink ?? blink, inverse: other.inverse ?? inverse,
            hidden: other.hidden ?? hidden, strikethrough: other.strikethrough ?? strikethrough,
            foreground: other.foreground ?? foreground, background: other.background ?? background,
            link: other.link ?? link)
    }

    /// True when nothing is checked (every attribute and color is nil).
    package var checksNothing: Bool { self == TextStyle() }

    // MARK: - Matching

    /// Whether a cell's attributes have this style.
    package func matches(_ attributes: CellAttributes) -> Bool { differences(from: attributes).isEmpty }

    /// What differs between this style and a cell's attributes, one readable line per checked
    /// attribute or color that does not hold: `bold: expected on, found off`,
    /// `fg: expected red, found default`. Empty when the cell has the style.
    package func differences(from attributes: CellAttributes) -> [String] {
        var found: [String] = []
        for (name, expected, actual) in flags(of: attributes) {
            if let expected, expected != actual {
                found.append("\(name): expected \(expected ? "on" : "off"), found \(actual ? "on" : "off")")
            }
        }
        if let foreground, foreground != attributes.foreground {
            found.append("fg: expected \(foreground.styleName), found \(attributes.foreground.styleName)")
        }
        if let background, background != attributes.background {
            found.append("bg: expected \(background.styleName), found \(attributes.background.styleName)")
        }
        if let link, link != (attributes.link ?? "") {
            found.append("link: expected \(link.isEmpty ? "none" : link), found \(attributes.link ?? "none")")
        }
        return found
    }

    /// The first cell of `match` (in column order) whose attributes do not have this style, with
    /// its index in `match.cells` and the differences; nil when every cell has it. The right
    /// half of a wide character is not checked apart from its left half.
    package func firstDifference(in match: ScreenMatch) -> (index: Int, cell: Cell, differences: [String])? {
        for (index, cell) in match.cells.enumerated() where cell.width != 0 {
            let differences = differences(from: cell.attributes)
            if !differences.isEmpty { return (index, cell, differences) }
        }
        return nil
    }

    /// Whether every cell of `match` has this style (and the match has at least one cell).
    package func matches(_ match: ScreenMatch) -> Bool { !match.cells.isEmpty && firstDifference(in: match) == nil }

    private func flags(of attributes: CellAttributes) -> [(String, Bool?, Bool)] {
        [
            ("bold", bold, attributes.bold), ("dim", dim, attributes.dim), ("italic", italic, attributes.italic),
            ("underline", underline, attributes.underline), ("blink", blink, attributes.blink),
            ("inverse", inverse, attributes.inverse), ("hidden", hidden, attributes.hidden),
            ("strikethrough", strikethrough, attributes.strikethrough),
        ]
    }

    // MARK: - Spelling

    /// The names of the attributes, in SGR order, as ``description`` writes them.
    package static let attributeNames = ["bold", "dim", "italic", "underline", "blink", "inverse", "hidden", "strikethrough"]

    /// The style as flows write it: the attributes expected on by name, those expected off as
    /// `not-NAME`, then `fg=COLOR` and `bg=COLOR` (see ``TerminalColor/styleName``), then
    /// `link=URI` (`not-link` for no link); `plain` for ``plain``, `any` when nothing is
    /// checked. `bold not-italic fg=red bg=#102030 link=https://example.com`.
    public var description: String {
        if self == .plain { return "plain" }
        var parts: [String] = []
        for (name, expected, _) in flags(of: .plain) {
            if let expected { parts.append(expected ? name : "not-" + name) }
        }
        if let foreground { parts.append("fg=" + foreground.styleName) }
        if let background { parts.append("bg=" + background.styleName) }
        if let link { parts.append(link.isEmpty ? "not-link" : "link=" + link) }
        return parts.isEmpty ? "any" : parts.joined(separator: " ")
    }

    /// This style with the attribute `name` (one of ``attributeNames``) expected on or off; nil
    /// for an unknown name.
    package func setting(_ name: String, to value: Bool) -> TextStyle? {
        var copy = self
        switch name {
        case "bold": copy.bold = value
        case "dim": copy.dim = value
        case "italic": copy.italic = value
        case "underline": copy.underline = value
        case "blink": copy.blink = value
        case "inverse": copy.inverse = value
        case "hidden": copy.hidden = value
        case "strikethrough": copy.strikethrough = value
        default: return nil
        }
        return copy
    }
}

extension CellAttributes {
    /// SGR 1 (the same as ``bold``, named for `#expect(match.style.isBold)`).
    public var isBold: Bool { bold }
    /// SGR 3 (the same as ``italic``).
    public var isItalic: Bool { italic }
    /// SGR 4 (the same as ``underline``).
    public var isUnderlined: Bool { underline }
    /// SGR 7 (the same as ``inverse``).
    public var isInverse: Bool { inverse }
}
