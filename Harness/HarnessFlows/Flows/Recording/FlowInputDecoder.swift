import HarnessCore
import HarnessSteps

/// One thing a user did at the keyboard, decoded from the bytes a terminal sent.
public enum FlowRecordedInput: Sendable, Equatable {
    /// Printable text (also escape sequences nobody names, kept as they are).
    case text(String)
    /// A key with a name (`enter`, `up`, `ctrl-c`, `alt-x`, `f5`).
    case key(Key)
    /// A bracketed paste (`ESC [ 200 ~` ... `ESC [ 201 ~`).
    case paste(String)
}

/// Turns the bytes of one burst of keyboard input into text and key names, the inverse of
/// ``Key/encoded(applicationCursorKeys:)``: `ESC [ A` and `ESC O A` are `up`, `ESC [ 5 ~` is
/// `pgup`, a byte below 0x20 is `ctrl-X` (or `enter`, `tab`), ESC before a key is `alt-`.
///
/// A burst is decoded on its own: a terminal sends each key's sequence in one write, so an
/// ESC at the end of a burst is the Escape key.
///
/// ```swift
/// FlowInputDecoder.decode(Array("hi\r\u{1B}[A".utf8))  // [.text("hi"), .key(.enter), .key(.up)]
/// ```
public enum FlowInputDecoder {
    /// The inputs in `bytes`, printable runs joined into one `.text`.
    public static func decode(_ bytes: [UInt8]) -> [FlowRecordedInput] {
        var inputs: [FlowRecordedInput] = []
        var text: [UInt8] = []
        func flushText() {
            guard !text.isEmpty else { return }
            append(.text(String(decoding: text, as: UTF8.self)), to: &inputs)
            text.removeAll()
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x20, byte != 0x7F {
                text.append(byte)
                index += 1
                continue
            }
            if byte == 0x1B, let (input, length) = escapeSequence(bytes, at: index) {
                if case .text(let raw) = input {
                    text += Array(raw.utf8)
                } else {
                    flushText()
                    append(input, to: &inputs)
                }
                index += length
                continue
            }
            flushText()
            append(.key(controlKey(byte)), to: &inputs)
            index += 1
        }
        flushText()
        return inputs
    }

    /// Appends, joining text to text.
    private static func append(_ input: FlowRecordedInput, to inputs: inout [FlowRecordedInput]) {
        if case .text(let new) = input, case .text(let old)? = inputs.last {
            inputs[inputs.count - 1] = .text(old + new)
        } else {
            inputs.append(input)
        }
    }

    /// The key of a control byte (below 0x20, or DEL), as ``Key/init(controlByte:)`` names it
    /// but NUL, written `ctrl-@` as caret notation does (`^@`).
    static func controlKey(_ byte: UInt8) -> Key {
        byte == 0x00 ? .ctrl("@") : Key(controlByte: byte)
    }

    /// The input an ESC at `start` begins, and how many bytes it takes; nil when nothing
    /// follows the ESC (the Escape key).
    static func escapeSequence(_ bytes: [UInt8], at start: Int) -> (FlowRecordedInput, Int)? {
        let next = start + 1
        guard next < bytes.count else { return nil }
        let introducer = bytes[next]
        if introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") {
            // Parameters (digits and ;) then a final byte 0x40...0x7E.
            var end = next + 1
            while end < bytes.count, (0x30...0x3F).contains(bytes[end]) { end += 1 }
            if end < bytes.count, (0x40...0x7E).contains(bytes[end]) {
                let parameters = String(decoding: bytes[(next + 1)..<end], as: UTF8.self)
                let final = Character(UnicodeScalar(bytes[end]))
                let length = end - start + 1
                if introducer == UInt8(ascii: "["), parameters == "200", final == "~" {
                    return paste(bytes, from: start + length)
                }
                if let key = namedSequence(csi: introducer == UInt8(ascii: "["), parameters: parameters, final: final) {
                    return (.key(key), length)
                }
                return (.text(String(decoding: bytes[start...end], as: UTF8.self)), length)
            }
            if introducer == UInt8(ascii: "["), end == next + 1 {
                return (.key(.alt(.character("["))), 2)
            }
            if introducer == UInt8(ascii: "O"), end == next + 1 {
                return (.key(.alt(.character("O"))), 2)
            }
            return (.text(String(decoding: bytes[start..<end], as: UTF8.self)), end - start)
        }
        // Alt + a key: ESC then a control byte or one character.
        if introducer < 0x20 || introducer == 0x7F {
            return (.key(.alt(controlKey(introducer))), 2)
        }
        var end = next + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        let character = String(decoding: bytes[next..<end], as: UTF8.self)
        if character.count == 1, let first = character.first {
            return (.key(.alt(first == " " ? .character(" ") : .character(first))), end - start)
        }
        return (.text(String(decoding: bytes[start..<end], as: UTF8.self)), end - start)
    }

    /// A bracketed paste whose text starts at `textStart`; up to `ESC [ 201 ~` or the end.
    private static func paste(_ bytes: [UInt8], from textStart: Int) -> (FlowRecordedInput, Int) {
        let endMarker: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]
        var index = textStart
        while index < bytes.count {
            if bytes[index] == 0x1B, index + endMarker.count <= bytes.count,
               Array(bytes[index..<(index + endMarker.count)]) == endMarker {
                let text = String(decoding: bytes[textStart..<index], as: UTF8.self)
                return (.paste(text.replacingCarriageReturns()), index + endMarker.count - textStart + 6)
            }
            index += 1
        }
        let text = String(decoding: bytes[textStart...].prefix(bytes.count - textStart), as: UTF8.self)
        return (.paste(text.replacingCarriageReturns()), bytes.count - textStart + 6)
    }

    /// The key an xterm sequence (`ESC [ params final` or `ESC O final`) stands for, with the
    /// modifiers xterm adds as a second parameter (`ESC [ 1 ; 5 D` is `ctrl-left`, `ESC [ 15 ; 2 ~`
    /// is `shift-f5`: 1 + shift 1, alt 2, ctrl 4, super 8).
    static func namedSequence(csi: Bool, parameters: String, final: Character) -> Key? {
        let fields = parameters.split(separator: ";", omittingEmptySubsequences: false)
        if csi, fields.count == 2, let code = Int(fields[1]), (2...16).contains(code) {
            let base: Key?
            if fields[0] == "1", let function = "PQRS".firstIndex(of: final) {
                base = .f("PQRS".distance(from: "PQRS".startIndex, to: function) + 1)
            } else {
                base = namedSequence(csi: true, parameters: fields[0] == "1" && final != "~" ? "" : String(fields[0]), final: final)
            }
            return base.map { .modified($0, KeyModifiers(rawValue: code - 1)) }
        }
        if parameters.isEmpty {
            switch final {
            case "A": return .up
            case "B": return .down
            case "C": return .right
            case "D": return .left
            case "H": return .home
            case "F": return .end
            case "Z" where csi: return .backTab
            case "P" where !csi: return .f(1)
            case "Q" where !csi: return .f(2)
            case "R" where !csi: return .f(3)
            case "S" where !csi: return .f(4)
            default: return nil
            }
        }
        guard csi, final == "~", let number = Int(parameters) else { return nil }
        switch number {
        case 1, 7: return .home
        case 2: return .insert
        case 3: return .delete
        case 4, 8: return .end
        case 5: return .pageUp
        case 6: return .pageDown
        case 15: return .f(5)
        case 17, 18, 19, 20, 21: return .f(number - 11)
        case 23, 24: return .f(number - 12)
        default: return nil
        }
    }
}

extension String {
    /// Carriage returns (what a terminal sends for line breaks in a paste) as line feeds.
    func replacingCarriageReturns() -> String {
        replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
    }
}
