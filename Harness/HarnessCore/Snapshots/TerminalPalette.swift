import TerminalEmulator

/// The colors a picture of the screen uses: xterm's 16 basic colors, its 6×6×6 color cube and
/// 24-step grayscale ramp, truecolor as given, and a default foreground and background.
public struct TerminalPalette: Sendable, Hashable {
    /// The color of text with the default foreground, `#rrggbb`.
    public var defaultForeground: String
    /// The screen's color where the background is the default, `#rrggbb`.
    public var defaultBackground: String
    /// The 16 basic colors, 0-7 normal and 8-15 bright, `#rrggbb`.
    public var basic: [String]

    /// Creates a palette. `basic` should hold 16 colors; missing ones are xterm's.
    public init(defaultForeground: String, defaultBackground: String, basic: [String]) {
        self.defaultForeground = defaultForeground
        self.defaultBackground = defaultBackground
        self.basic = basic
    }

    /// xterm's default colors on a dark background.
    public static let xterm = TerminalPalette(theme: .dark)

    /// xterm's colors with `theme`'s default foreground and background: the colours the
    /// terminal reports to the program (OSC 10/11), so a picture shows what the program chose
    /// for that background. Every picture of a screen (SVG, PNG) resolves its colours here.
    public init(theme: TerminalTheme) {
        self.init(defaultForeground: Self.hex(theme.foreground) ?? "#d0d0d0",
                  defaultBackground: Self.hex(theme.background) ?? "#101010", basic: Self.xtermBasic)
    }

    /// The `#rrggbb` of a truecolor value.
    private static func hex(_ color: TerminalColor) -> String? {
        if case let .rgb(r, g, b) = color { return hex(r, g, b) }
        return nil
    }

    private static let xtermBasic = [
        "#000000", "#cd0000", "#00cd00", "#cdcd00", "#0000ee", "#cd00cd", "#00cdcd", "#e5e5e5",
        "#7f7f7f", "#ff0000", "#00ff00", "#ffff00", "#5c5cff", "#ff00ff", "#00ffff", "#ffffff",
    ]

    /// The `#rrggbb` of a color; `nil` for `.default` (the caller picks foreground or background).
    public func hex(_ color: TerminalColor) -> String? {
        switch color {
        case .default:
            return nil
        case .indexed(let index) where index < 16:
            return Int(index) < basic.count ? basic[Int(index)] : Self.xtermBasic[Int(index)]
        case .indexed(let index) where index < 232:
            let levels: [UInt8] = [0, 95, 135, 175, 215, 255]
            let cube = Int(index) - 16
            return Self.hex(levels[cube / 36], levels[(cube / 6) % 6], levels[cube % 6])
        case .indexed(let index):
            let gray = UInt8(8 + 10 * (Int(index) - 232))
            return Self.hex(gray, gray, gray)
        case let .rgb(r, g, b):
            return Self.hex(r, g, b)
        }
    }

    /// `#rrggbb` in lowercase hex.
    package static func hex(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> String { TerminalColor.hex(r, g, b) }
}
