import HarnessCore
import HarnessSteps

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
        TextEscaping.map(text) { scalar in
            if let entity = TextEscaping.xmlEntity(scalar, quotes: attribute) { return entity }
            switch scalar {
            case "\n" where attribute: return "&#10;"
            case "\t" where attribute: return "&#9;"
            case "\r": return "&#13;"
            case "\n", "\t": return nil
            default:
                if scalar.value < 0x20 { return String(Unicode.Scalar(0x2400 + scalar.value)!) }
                return scalar.value == 0xFFFE || scalar.value == 0xFFFF ? "\u{FFFD}" : nil
            }
        }
    }
}
