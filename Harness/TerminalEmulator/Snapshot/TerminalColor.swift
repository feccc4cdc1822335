/// A cell's foreground or background color as the program selected it.
public enum TerminalColor: Sendable, Hashable {
    /// The terminal's default color (SGR 39 / 49).
    case `default`
    /// A palette entry: 0-7 normal, 8-15 bright, 16-255 the xterm 256-color cube and grays.
    case indexed(UInt8)
    /// A 24-bit truecolor value (SGR 38;2;r;g;b).
    case rgb(UInt8, UInt8, UInt8)
}
