/// Bytes as a short, readable escaped string (`\e[1;31mred`), and back, for reproducers.
///
/// `\e` ESC, `\r`, `\n`, `\t`, `\b`, `\\`, `\"`, `\u{XXXX}` a non-ASCII scalar (its UTF-8
/// bytes), `\xHH` any other byte (a control, or UTF-8 that does not decode).
enum Escaping {
    static func escape(_ bytes: [UInt8]) -> String {
        var out = ""
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x1B: out += "\\e"
            case 0x0D: out += "\\r"
            case 0x0A: out += "\\n"
            case 0x09: out += "\\t"
            case 0x08: out += "\\b"
            case UInt8(ascii: "\\"): out += "\\\\"
            case UInt8(ascii: "\""): out += "\\\""
            case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(byte))
            case 0x80...:
                if let (scalar, length) = decodeScalar(bytes, at: index) {
                    out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                    index += length
                    continue
                }
                out += hex(byte)
            default: out += hex(byte)
            }
            index += 1
        }
        return out
    }

    private static func hex(_ byte: UInt8) -> String {
        "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
    }

    /// The scalar whose UTF-8 encoding starts at `index` (shortest form only), and its length.
    private static func decodeScalar(_ bytes: [UInt8], at index: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[index]
        let length = lead >= 0xF0 && lead <= 0xF4 ? 4 : lead >= 0xE0 && lead <= 0xEF ? 3 : lead >= 0xC2 && lead <= 0xDF ? 2 : 0
        guard length > 0, index + length <= bytes.count else { return nil }
        var decoder = UTF8()
        var iterator = bytes[index..<index + length].makeIterator()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator), scalar.utf8.count == length else { return nil }
        return (scalar, length)
    }

    enum ParseError: Error, CustomStringConvertible {
        case bad(String)
        var description: String { if case .bad(let text) = self { return text } else { return "" } }
    }

    /// The bytes an escaped string stands for (the reverse of `escape`).
    static func unescape(_ text: String) throws -> [UInt8] {
        var out: [UInt8] = []
        var scalars = Array(text.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            guard scalar == "\\" else {
                out += Array(String(scalar).utf8)
                continue
            }
            guard let kind = scalars.popFirst() else { throw ParseError.bad("a lone \\ at the end") }
            switch kind {
            case "e": out.append(0x1B)
            case "r": out.append(0x0D)
            case "n": out.append(0x0A)
            case "t": out.append(0x09)
            case "b": out.append(0x08)
            case "\\": out.append(UInt8(ascii: "\\"))
            case "\"": out.append(UInt8(ascii: "\""))
            case "x":
                let digits = String(String.UnicodeScalarView(scalars.prefix(2)))
                guard digits.count == 2, let byte = UInt8(digits, radix: 16) else { throw ParseError.bad("\\x needs two hex digits") }
                scalars = scalars.dropFirst(2)
                out.append(byte)
            case "u":
                guard scalars.first == "{", let close = scalars.firstIndex(of: "}") else { throw ParseError.bad("\\u needs {hex}") }
                let digits = String(String.UnicodeScalarView(scalars[scalars.index(after: scalars.startIndex)..<close]))
                guard let value = UInt32(digits, radix: 16), let decoded = Unicode.Scalar(value) else {
                    throw ParseError.bad("\\u{\(digits)} is not a scalar")
                }
                out += Array(String(decoded).utf8)
                scalars = scalars[scalars.index(after: close)...]
            default: throw ParseError.bad("unknown escape \\\(kind)")
            }
        }
        return out
    }
}
