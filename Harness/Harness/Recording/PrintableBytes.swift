/// Escaped, printable renderings of raw terminal bytes for error messages.
enum PrintableBytes {
    /// `"\e[1mhi\r\n"`: ESC as `\e`, CR/LF/tab as `\r` `\n` `\t`, other control bytes and
    /// invalid UTF-8 as `\xNN`, backslash doubled, valid text as is.
    static func escape(_ bytes: some Collection<UInt8>) -> String {
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

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return "\\x" + (digits.count == 1 ? "0" : "") + digits
    }
}
