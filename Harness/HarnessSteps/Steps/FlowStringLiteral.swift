import HarnessCore

/// Quoting of flow strings: the inverse of what the parser reads (used by recorders and messages).
public enum FlowStringLiteral {
    /// `text` as a double-quoted flow string, escaping `"`, `\` and control characters.
    public static func quote(_ text: String) -> String {
        let escaped = TextEscaping.map(text) { scalar in
            if scalar == "\u{1B}" { return "\\e" }
            return TextEscaping.backslashEscape(scalar)
                ?? (TextEscaping.isControl(scalar) ? "\\x" + TextEscaping.hex(scalar.value, width: 2, uppercase: true) : nil)
        }
        return "\"" + escaped + "\""
    }
}
