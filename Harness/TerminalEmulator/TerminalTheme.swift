/// Whether the terminal is light or dark: the default colours it reports to programs (OSC 10
/// and 11 queries), the `COLORFGBG` a launched program is given, and the palette pictures of
/// its screen are drawn with. Programs such as vim, bat and delta choose their colours by it.
public enum TerminalTheme: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Light text on a dark background (`#d0d0d0` on `#101010`): the default.
    case dark
    /// Dark text on a light background (`#101010` on `#f4f4f4`).
    case light

    /// The default foreground colour, as OSC 10 reports it.
    public var foreground: TerminalColor {
        switch self {
        case .dark: .rgb(0xD0, 0xD0, 0xD0)
        case .light: .rgb(0x10, 0x10, 0x10)
        }
    }

    /// The default background colour, as OSC 11 reports it.
    public var background: TerminalColor {
        switch self {
        case .dark: .rgb(0x10, 0x10, 0x10)
        case .light: .rgb(0xF4, 0xF4, 0xF4)
        }
    }

    /// The `COLORFGBG` value that says the same (foreground;background as basic colour
    /// numbers): `15;0` dark, `0;15` light.
    package var colorFGBG: String {
        switch self {
        case .dark: "15;0"
        case .light: "0;15"
        }
    }

    /// `dark` or `light`.
    public var description: String { rawValue }
}
