import Foundation

extension TerminalRecording {
    /// The recording as an asciicast v2 file (https://docs.asciinema.org/manual/asciicast/v2/):
    /// a header line, then one `[time, "o"|"i"|"r", data]` line per event.
    ///
    /// A UTF-8 character split across two chunks is carried to the next event of the same kind,
    /// so every line holds valid text; bytes that are not UTF-8 become U+FFFD.
    public func asciicast() -> String {
        var header = "{\"version\": 2, \"width\": \(size.cols), \"height\": \(size.rows), "
        header += "\"timestamp\": \(Int(startDate.timeIntervalSince1970))"
        if let term {
            header += ", \"env\": {\"TERM\": \(Self.jsonString(term))}"
        }
        header += "}"

        var lines = [header]
        var carried: [EventKind: [UInt8]] = [:]
        for event in events {
            let code: String
            switch event.kind {
            case .output: code = "o"
            case .input: code = "i"
            case .resize: code = "r"
            }
            let bytes = (carried[event.kind] ?? []) + event.bytes
            let complete = Self.completeUTF8Prefix(bytes)
            carried[event.kind] = Array(bytes[complete...])
            if complete == 0 { continue }
            let text = String(decoding: bytes[..<complete], as: UTF8.self)
            lines.append("[\(Self.formatTime(event.time)), \"\(code)\", \(Self.jsonString(text))]")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes `asciicast()` to a file.
    public func writeAsciicast(toFile path: String) throws {
        try asciicast().write(toFile: path, atomically: true, encoding: .utf8)
    }

    // MARK: - Helpers

    /// The length of `bytes` without a trailing incomplete UTF-8 sequence.
    static func completeUTF8Prefix(_ bytes: [UInt8]) -> Int {
        var index = bytes.count
        var continuation = 0
        while index > 0, continuation < 3, bytes[index - 1] & 0xC0 == 0x80 {
            index -= 1
            continuation += 1
        }
        guard index > 0 else { return bytes.count }
        let lead = bytes[index - 1]
        let needed: Int
        switch lead {
        case 0xC0...0xDF: needed = 1
        case 0xE0...0xEF: needed = 2
        case 0xF0...0xF7: needed = 3
        default: return bytes.count
        }
        return continuation < needed ? index - 1 : bytes.count
    }

    static func formatTime(_ time: Double) -> String {
        String(format: "%.6f", max(0, time))
    }

    /// A JSON string literal for `text`.
    static func jsonString(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7f {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
