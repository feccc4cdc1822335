/// A key the app understands.
enum InputKey: Equatable {
    case up, down, left, right, pageUp, pageDown, home, end
    case enter, space, interrupt
    case character(Character)
}

/// Turns the bytes typed in raw mode into keys, across reads: a sequence split over two reads
/// is completed by the second. Unknown escape sequences are skipped whole.
struct KeyDecoder {
    private var pending: [UInt8] = []

    /// Decodes `bytes` (appended to anything left over from the last call).
    mutating func decode(_ bytes: [UInt8]) -> [InputKey] {
        pending += bytes
        var keys: [InputKey] = []
        var index = 0
        while index < pending.count {
            let byte = pending[index]
            if byte == 0x1B {
                guard let (key, length) = escapeSequence(at: index) else { break }  // incomplete: wait
                if let key { keys.append(key) }
                index += length
                continue
            }
            switch byte {
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x20: keys.append(.space)
            case 0x03: keys.append(.interrupt)
            case 0x21 ... 0x7E: keys.append(.character(Character(Unicode.Scalar(byte))))
            default: break
            }
            index += 1
        }
        pending.removeFirst(index)
        return keys
    }

    /// The key at `start` (an ESC) and its length, or nil if more bytes are needed.
    private func escapeSequence(at start: Int) -> (InputKey?, Int)? {
        guard start + 1 < pending.count else { return nil }
        let introducer = pending[start + 1]
        if introducer == UInt8(ascii: "O") {
            guard start + 2 < pending.count else { return nil }
            return (finalKey(pending[start + 2], parameter: nil), 3)
        }
        guard introducer == UInt8(ascii: "[") else { return (nil, 1) }  // a lone ESC: ignore it
        var index = start + 2
        var parameter: Int?
        var firstParameterDone = false
        while index < pending.count {
            let byte = pending[index]
            switch byte {
            case 0x30 ... 0x39 where !firstParameterDone:
                parameter = (parameter ?? 0) * 10 + Int(byte - 0x30)
            case 0x30 ... 0x3F:
                firstParameterDone = true
            case 0x40 ... 0x7E:
                return (finalKey(byte, parameter: parameter), index - start + 1)
            default:
                break
            }
            index += 1
        }
        return nil
    }

    private func finalKey(_ final: UInt8, parameter: Int?) -> InputKey? {
        switch final {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        case UInt8(ascii: "~"):
            switch parameter {
            case 1, 7: .home
            case 4, 8: .end
            case 5: .pageUp
            case 6: .pageDown
            default: nil
            }
        default: nil
        }
    }
}
