/// Escaping for XML and HTML output.
///
/// Characters XML 1.0 forbids (C0 controls other than tab, line feed and carriage return, and
/// U+FFFE/U+FFFF) cannot appear even as references, so they are replaced by their visible
/// Control Pictures (ESC becomes `␛`, NUL `␀`) and U+FFFD.
public enum XMLEscaping {
    /// `text` escaped for element content.
    public static func text(_ text: String) -> String { escape(text, attribute: false) }

    /// `text` escaped for a double- or single-quoted attribute value (line breaks and tabs kept
    /// as character references so parsers do not normalise them to spaces).
    public static func attribute(_ text: String) -> String { escape(text, attribute: true) }

    private static func escape(_ text: String, attribute: Bool) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where attribute: result += "&quot;"
            case "'" where attribute: result += "&apos;"
            case "\n" where attribute: result += "&#10;"
            case "\t" where attribute: result += "&#9;"
            case "\r": result += "&#13;"
            case "\n", "\t": result.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 {
                    result.unicodeScalars.append(Unicode.Scalar(0x2400 + scalar.value)!)
                } else if scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    result += "\u{FFFD}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }
}
