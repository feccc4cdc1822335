/// What the escapers of the harness share (JSON strings in recordings, flow strings, XML in
/// pictures and reports): the loop over the text's scalars, the backslash escapes of C-like
/// string literals, the markup characters of XML, and hexadecimal codes. Each escaper says
/// only what differs in its language.
package enum TextEscaping {
    /// `text` with every scalar that `replacement` maps replaced by what it returns; the
    /// others kept as they are.
    package static func map(_ text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let replaced = replacement(scalar) {
                out += replaced
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `"`, `\`, line feed, carriage return and tab as `\"`, `\\`, `\n`, `\r`, `\t`; nil for
    /// any other scalar.
    package static func backslashEscape(_ scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "\"": "\\\""
        case "\\": "\\\\"
        case "\n": "\\n"
        case "\r": "\\r"
        case "\t": "\\t"
        default: nil
        }
    }

    /// Whether `scalar` is a C0 control character or DEL.
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F
    }

    /// `text` made safe to print on a terminal, with its lines kept: ESC as `\e`, carriage
    /// return as `\r`, every other C0 control except line feed and tab, DEL and the C1
    /// controls (U+0080 to U+009F) as `\u{XX}`; everything else as it is. A flow's name, a
    /// message or a program's output printed this way cannot move the cursor, change colours,
    /// set the window title or hide what follows.
    package static func console(_ text: String) -> String {
        func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
            (isControl(scalar) && scalar != "\n" && scalar != "\t") || (0x80...0x9F).contains(scalar.value)
        }
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        return map(text) { scalar in
            guard needsEscape(scalar) else { return nil }
            switch scalar {
            case "\u{1B}": return "\\e"
            case "\r": return "\\r"
            default: return "\\u{" + hex(scalar.value, width: 2, uppercase: true) + "}"
            }
        }
    }

    /// `&`, `<` and `>` as entities, and with `quotes` `"` and `'` too; nil for any other scalar.
    package static func xmlEntity(_ scalar: Unicode.Scalar, quotes: Bool) -> String? {
        switch scalar {
        case "&": "&amp;"
        case "<": "&lt;"
        case ">": "&gt;"
        case "\"" where quotes: "&quot;"
        case "'" where quotes: "&apos;"
        default: nil
        }
    }

    /// `value` in hexadecimal, padded with zeros to `width` digits.
    package static func hex(_ value: UInt32, width: Int, uppercase: Bool = false) -> String {
        let digits = String(value, radix: 16, uppercase: uppercase)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

/// ``TextEscaping/console(_:)`` for bytes that arrive in pieces (a program's output passed on to
/// the console): the same controls escaped the same way. A piece may end between the two bytes
/// of a C1 control in UTF-8 (`C2 80` to `C2 9F`), so a piece's last `C2` is held until the next
/// piece shows what it starts.
package struct ConsoleByteEscaper: Sendable {
    private var heldLead = false

    package init() {}

    /// `bytes` escaped, after any byte held from the piece before.
    package mutating func escape(_ bytes: [UInt8]) -> [UInt8] {
        var escaped: [UInt8] = []
        escaped.reserveCapacity(bytes.count)
        for byte in bytes {
            if heldLead {
                heldLead = false
                if (0x80...0x9F).contains(byte) {
                    escaped += Array("\\u{\(TextEscaping.hex(UInt32(byte), width: 2, uppercase: true))}".utf8)
                    continue
                }
                escaped.append(0xC2)
            }
            switch byte {
            case 0x0A, 0x09: escaped.append(byte)
            case 0x1B: escaped += Array("\\e".utf8)
            case 0x0D: escaped += Array("\\r".utf8)
            case 0x00..<0x20, 0x7F: escaped += Array("\\u{\(TextEscaping.hex(UInt32(byte), width: 2, uppercase: true))}".utf8)
            case 0xC2: heldLead = true
            default: escaped.append(byte)
            }
        }
        return escaped
    }
}
