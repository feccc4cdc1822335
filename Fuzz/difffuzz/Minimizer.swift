/// Shrinks a stream that shows a difference to a short one that still shows one: whole pieces
/// (escape sequences, characters) are dropped while the difference stays (delta debugging),
/// then single bytes.
struct Minimizer {
    let stillDiffers: ([UInt8]) -> Bool
    /// At most this many trial runs, and this much time (a stream with huge repeat counts is
    /// slow to replay; its reproducer is then less minimal, never wrong).
    var budget = 4000
    var deadline = ContinuousClock.now + .seconds(10)

    mutating func minimize(_ bytes: [UInt8]) -> [UInt8] {
        var pieces = Self.pieces(bytes)
        pieces = shrink(pieces)
        // Then bytes, inside the pieces left (a parameter digit, a letter of a run).
        let flat = shrink(pieces.flatMap { $0 }.map { [$0] })
        return flat.flatMap { $0 }
    }

    /// ddmin: removes chunks of halving size while the stream still differs.
    private mutating func shrink(_ start: [[UInt8]]) -> [[UInt8]] {
        var pieces = start
        var size = max(1, pieces.count / 2)
        while budget > 0 && ContinuousClock.now < deadline {
            var removedAny = false
            var index = 0
            while index < pieces.count && budget > 0 && ContinuousClock.now < deadline {
                var trial = pieces
                trial.removeSubrange(index..<min(pieces.count, index + size))
                budget -= 1
                if stillDiffers(trial.flatMap { $0 }) {
                    pieces = trial
                    removedAny = true
                } else {
                    index += size
                }
            }
            if size == 1 && !removedAny { break }
            if !removedAny { size = max(1, size / 2) }
        }
        return pieces
    }

    /// The stream cut into pieces a program would write as units: an escape sequence (CSI, OSC
    /// and the other strings up to their terminator, ESC and its intermediates and final), a
    /// UTF-8 character, a byte.
    static func pieces(_ bytes: [UInt8]) -> [[UInt8]] {
        var pieces: [[UInt8]] = []
        var index = 0
        while index < bytes.count {
            let start = index
            let byte = bytes[index]
            index += 1
            // C0 controls inside an escape sequence are executed and the sequence goes on.
            if byte == 0x1B {
                while index < bytes.count && bytes[index] < 0x20 && ![0x1B, 0x18, 0x1A].contains(bytes[index]) { index += 1 }
            }
            if byte == 0x1B, index < bytes.count, bytes[index] != 0x1B {
                let kind = bytes[index]
                index += 1
                switch kind {
                case UInt8(ascii: "["):
                    while index < bytes.count && !(0x40...0x7E).contains(bytes[index]) && bytes[index] != 0x1B { index += 1 }
                    if index < bytes.count && bytes[index] != 0x1B { index += 1 }
                case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "_"), UInt8(ascii: "^"), UInt8(ascii: "X"):
                    while index < bytes.count && bytes[index] != 0x07 && bytes[index] != 0x1B { index += 1 }
                    if index < bytes.count && bytes[index] == 0x07 { index += 1 }
                    else if index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\\") { index += 2 }
                case 0x20...0x2F:
                    while index < bytes.count && (0x20...0x2F).contains(bytes[index]) { index += 1 }
                    if index < bytes.count && bytes[index] != 0x1B { index += 1 }
                default: break
                }
            } else if byte >= 0xC0 {
                // As many continuation bytes as the lead announces (a stray one after is its own piece).
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                while index < bytes.count && index - start < length && bytes[index] & 0xC0 == 0x80 { index += 1 }
            }
            pieces.append(Array(bytes[start..<index]))
        }
        return pieces
    }
}
