/// The sixteen basic colors of the terminal's palette (SGR 30-37 and 90-97), by name.
public enum BasicColor: UInt8, Sendable, CaseIterable {
    /// Palette 0.
    case black
    /// Palette 1.
    case red
    /// Palette 2.
    case green
    /// Palette 3.
    case yellow
    /// Palette 4.
    case blue
    /// Palette 5.
    case magenta
    /// Palette 6.
    case cyan
    /// Palette 7.
    case white
    /// Palette 8.
    case brightBlack
    /// Palette 9.
    case brightRed
    /// Palette 10.
    case brightGreen
    /// Palette 11.
    case brightYellow
    /// Palette 12.
    case brightBlue
    /// Palette 13.
    case brightMagenta
    /// Palette 14.
    case brightCyan
    /// Palette 15.
    case brightWhite

    /// The name styles and flows write: `red`, `bright-red`.
    public var name: String {
        let names = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]
        return rawValue < 8 ? names[Int(rawValue)] : "bright-" + names[Int(rawValue) - 8]
    }
}

extension TerminalColor {
    /// A basic color by name: `.named(.red)` is `.indexed(1)`, what `ESC [ 31 m` selects.
    public static func named(_ color: BasicColor) -> TerminalColor { .indexed(color.rawValue) }

    /// An entry of the 256-color palette (`ESC [ 38 ; 5 ; N m`); 0-15 are the basic colors.
    public static func palette(_ index: UInt8) -> TerminalColor { .indexed(index) }

    /// The color as styles and flows write it: `default`, a basic color's name (`red`,
    /// `bright-blue`), a palette number (`196`) or `#rrggbb`.
    package var styleName: String {
        switch self {
        case .default:
            return "default"
        case .indexed(let index) where index < 16:
            return BasicColor(rawValue: index)!.name
        case .indexed(let index):
            return String(index)
        case let .rgb(red, green, blue):
            return Self.hex(red, green, blue)
        }
    }

    /// Reads a ``styleName``: `default`, a basic color's name, a palette number 0-255 or
    /// `#rrggbb` (hex digits in either case); nil for anything else.
    package init?(styleName text: String) {
        if text == "default" {
            self = .default
            return
        }
        if let basic = BasicColor.allCases.first(where: { $0.name == text }) {
            self = .named(basic)
            return
        }
        if !text.isEmpty, text.count <= 3, text.allSatisfy({ $0.isASCII && $0.isNumber }), let index = UInt8(text) {
            self = .indexed(index)
            return
        }
        if text.hasPrefix("#"), text.count == 7, text.dropFirst().allSatisfy(\.isHexDigit),
           let value = UInt32(text.dropFirst(), radix: 16) {
            self = .rgb(UInt8(value >> 16), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF))
            return
        }
        return nil
    }
}
