/// Short, readable descriptions of the values tests print when a check fails.
///
/// Without them, `#expect(screen.contains("Saved"))` printed the whole stored grid (about
/// 150 KB of `StoredCell(...)` on one line). A screen now prints as what a person would see:
/// the framed rows and the cursor; the scrollback is counted, not listed.

extension ScreenSnapshot: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `ScreenSnapshot 80x24 (main screen, 120 lines of scrollback)` and the framed screen.
    public var description: String {
        var summary = "ScreenSnapshot \(cols)x\(rows) (\(activeBuffer == .main ? "main" : "alternate") screen"
        if scrollbackCount > 0 { summary += ", \(scrollbackCount) line\(scrollbackCount == 1 ? "" : "s") of scrollback" }
        if !title.isEmpty { summary += ", title \"\(title)\"" }
        return summary + ")\n" + framed()
    }

    public var debugDescription: String { description }

    /// What `dump` and debuggers show: the summary, the rows' text and the cursor, never the
    /// stored cells.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "size": "\(cols)x\(rows)",
            "activeBuffer": activeBuffer,
            "lines": lines,
            "cursor": cursor,
            "title": title,
            "scrollbackCount": scrollbackCount,
        ], displayStyle: .struct)
    }
}

extension Cell: CustomStringConvertible {
    /// `"a"`, `"界" wide`, `"x" bold fg=red bg=#102030`: the character and what is not plain.
    public var description: String {
        var parts = ["\"\(character)\""]
        if width == 2 { parts.append("wide") }
        if width == 0 { parts.append("right half") }
        let style = attributes.description
        if !style.isEmpty { parts.append(style) }
        return parts.joined(separator: " ")
    }
}

extension CellAttributes: CustomStringConvertible {
    /// The attributes that are set, in SGR's order, then the colors: `bold underline fg=red`;
    /// empty for plain text.
    public var description: String {
        var parts = setFlagNames
        if foreground != .default { parts.append("fg=\(foreground)") }
        if background != .default { parts.append("bg=\(background)") }
        return parts.joined(separator: " ")
    }

    /// The names of the flags that are set, in SGR's order: `bold`, `dim`, `italic`,
    /// `underline`, `blink`, `inverse`, `hidden`, `strikethrough`.
    package var setFlagNames: [String] {
        let flags: [(Bool, String)] = [
            (bold, "bold"), (dim, "dim"), (italic, "italic"), (underline, "underline"), (blink, "blink"),
            (inverse, "inverse"), (hidden, "hidden"), (strikethrough, "strikethrough"),
        ]
        return flags.filter(\.0).map(\.1)
    }
}

extension TerminalColor: CustomStringConvertible {
    /// `default`, a name for the 16 basic colors (`red`, `bright-blue`), `color(208)`, `#ff8000`.
    public var description: String {
        switch self {
        case .default: "default"
        case .indexed(let index): basicName ?? "color(\(index))"
        case .rgb(let red, let green, let blue): Self.hex(red, green, blue)
        }
    }

    /// The name of one of the 16 basic colors (`red`, `bright-blue`); nil for any other color.
    package var basicName: String? {
        guard case .indexed(let index) = self, let basic = BasicColor(rawValue: index) else { return nil }
        return basic.name
    }

    /// `#rrggbb`, in lowercase hex digits.
    package static func hex(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        var out = "#"
        for byte in [red, green, blue] {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return out
    }
}
