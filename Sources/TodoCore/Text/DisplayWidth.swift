/// How many terminal columns text takes, and cutting text to a width with `…`.
///
/// East Asian wide and fullwidth characters and emoji take two columns; combining marks,
/// variation selectors and zero-width joiners take none. The ranges cover the blocks a todo
/// title realistically uses (the harness's emulator carries the full generated table).
public enum DisplayWidth {
    /// The columns `character` occupies: 0, 1 or 2.
    public static func of(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        return of(first)
    }

    /// The columns `scalar` occupies on its own: 0, 1 or 2.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (0x7F ..< 0xA0).contains(value) { return 0 }
        if value < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if scalar.properties.isEmojiPresentation { return 2 }
        return wideRanges.contains { $0.contains(value) } ? 2 : 1
    }

    /// The columns `text` occupies.
    public static func of(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// `text` cut to at most `width` columns, ending in `…` when anything was cut.
    public static func truncate(_ text: String, toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        if of(text) <= width { return text }
        var result = ""
        var used = 0
        for character in text {
            let columns = of(character)
            if used + columns > width - 1 { break }
            result.append(character)
            used += columns
        }
        return result + "…"
    }

    /// `text` cut or padded with spaces to exactly `width` columns.
    public static func fit(_ text: String, toWidth width: Int) -> String {
        let cut = truncate(text, toWidth: width)
        return cut + String(repeating: " ", count: max(0, width - of(cut)))
    }

    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100 ... 0x115F, 0x231A ... 0x231B, 0x2329 ... 0x232A, 0x2E80 ... 0x303E,
        0x3041 ... 0x33FF, 0x3400 ... 0x4DBF, 0x4E00 ... 0x9FFF, 0xA000 ... 0xA4CF,
        0xA960 ... 0xA97F, 0xAC00 ... 0xD7A3, 0xF900 ... 0xFAFF, 0xFE10 ... 0xFE19,
        0xFE30 ... 0xFE6F, 0xFF00 ... 0xFF60, 0xFFE0 ... 0xFFE6, 0x1F300 ... 0x1F64F,
        0x1F900 ... 0x1F9FF, 0x20000 ... 0x2FFFD, 0x30000 ... 0x3FFFD,
    ]
}
