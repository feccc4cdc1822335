/// How a cell's character is drawn: colors and SGR attributes, and the hyperlink it belongs to.
public struct CellAttributes: Sendable, Hashable {
    /// Foreground (text) color.
    public var foreground: TerminalColor
    /// Background color.
    public var background: TerminalColor
    /// SGR 1.
    public var bold: Bool
    /// SGR 2 (faint).
    public var dim: Bool
    /// SGR 3.
    public var italic: Bool
    /// SGR 4 (any underline style).
    public var underline: Bool
    /// SGR 5 or 6.
    public var blink: Bool
    /// SGR 7 (reverse video).
    public var inverse: Bool
    /// SGR 8 (concealed).
    public var hidden: Bool
    /// SGR 9 (crossed out).
    public var strikethrough: Bool
    /// The URI of the OSC 8 hyperlink the cell was printed in, or nil.
    public var link: String?

    /// Creates attributes; the defaults are the terminal's plain style.
    public init(
        foreground: TerminalColor = .default, background: TerminalColor = .default,
        bold: Bool = false, dim: Bool = false, italic: Bool = false, underline: Bool = false,
        blink: Bool = false, inverse: Bool = false, hidden: Bool = false, strikethrough: Bool = false,
        link: String? = nil
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.italic = italic
        self.underline = underline
        self.blink = blink
        self.inverse = inverse
        self.hidden = hidden
        self.strikethrough = strikethrough
        self.link = link
    }

    /// The plain style: default colors, no attribute.
    public static let plain = CellAttributes()
}
