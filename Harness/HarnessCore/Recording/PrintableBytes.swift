/// Escaped, printable renderings of raw terminal bytes for error messages.
package enum PrintableBytes {
    /// `"\e[1mhi\r\n"`: ESC as `\e`, CR/LF/tab as `\r` `\n` `\t`, other control bytes and
    /// invalid UTF-8 as `\xNN`, backslash doubled, valid text as is.
    package static func escape(_ bytes: some Collection<UInt8>) -> String {
        var result = ""
        let array = Array(bytes)
        var index = 0
        while index < array.count {
            let byte = array[index]
            switch byte {
            case 0x1b: result += "\\e"
            case 0x0d: result += "\\r"
            case 0x0a: result += "\\n"
            case 0x09: result += "\\t"
            case 0x5c: result += "\\\\"
            case 0x20...0x7e: result.unicodeScalars.append(Unicode.Scalar(byte))
            case 0xC2...0xF4:
                let length = byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
                if index + length <= array.count,
                   let text = String(validating: array[index..<index + length], as: UTF8.self) {
                    result += text
                    index += length
                    continue
                }
                result += hex(byte)
            default: result += hex(byte)
            }
            index += 1
        }
        return result
    }

    /// The end of a stream for a message, escaped as ``escape(_:)`` does, with its size:
    /// `stdout (0 bytes)`, `stderr (5 bytes): oops\n`, or for a long one
    /// `stdout (5000 bytes, the last 300): …end\n`. A UTF-8 character cut by the limit is
    /// left out rather than shown as bytes.
    package static func tail(_ label: String, of bytes: some Collection<UInt8>, limit: Int = 300) -> String {
        let count = bytes.count
        let unit = count == 1 ? "byte" : "bytes"
        guard count > 0 else { return "\(label) (0 bytes)" }
        guard count > limit else { return "\(label) (\(count) \(unit)): \(escape(bytes))" }
        var last = Array(bytes.suffix(limit))
        var skipped = 0
        while skipped < 3, let first = last.first, (0x80...0xBF).contains(first) {
            last.removeFirst()
            skipped += 1
        }
        return "\(label) (\(count) \(unit), the last \(last.count)): …\(escape(last))"
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return "\\x" + (digits.count == 1 ? "0" : "") + digits
    }
}
