/// A deterministic stream of what busy terminal programs write: text with SGR changes every
/// few characters, cursor moves, erases, CRLFs, CJK and emoji.
enum MixedANSIStream {
    static func generate(bytes target: Int, seed: UInt64) -> [UInt8] {
        var random = SplitMix(seed: seed)
        var out: [UInt8] = []
        out.reserveCapacity(target + 256)
        let words = ["the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "terminal", "emulator",
                     "swift", "render", "screen", "cursor", "x", "42", "status:", "OK", "error", "|"]
        let wide = ["中文", "日本語", "한국어", "字", "😀", "🚀", "🎉", "✅", "ｗｉｄｅ"]
        var column = 0
        func append(_ text: String) { out.append(contentsOf: Array(text.utf8)) }
        while out.count < target {
            switch random.next(100) {
            case 0..<45:
                let word = words[random.next(words.count)]
                append(word + " ")
                column += word.count + 1
            case 45..<60:
                switch random.next(6) {
                case 0: append("\u{1B}[0m")
                case 1: append("\u{1B}[1;3\(random.next(8))m")
                case 2: append("\u{1B}[38;5;\(random.next(256))m")
                case 3: append("\u{1B}[48;2;\(random.next(256));\(random.next(256));\(random.next(256))m")
                case 4: append("\u{1B}[4;9\(random.next(8))m")
                default: append("\u{1B}[22;24;39;49m")
                }
            case 60..<68:
                let text = wide[random.next(wide.count)]
                append(text)
                column += 4
            case 68..<74:
                switch random.next(5) {
                case 0: append("\u{1B}[\(1 + random.next(24));\(1 + random.next(80))H")
                case 1: append("\u{1B}[\(1 + random.next(5))A")
                case 2: append("\u{1B}[\(1 + random.next(5))B")
                case 3: append("\u{1B}[\(1 + random.next(10))C")
                default: append("\u{1B}[\(1 + random.next(10))D")
                }
            case 74..<78:
                switch random.next(8) {
                case 0: append("\u{1B}[J")
                case 1: append("\u{1B}[2K")
                case 2: append("\u{1B}[\(1 + random.next(5))X")
                default: append("\u{1B}[K")
                }
            default:
                if column > 50 || random.next(4) == 0 {
                    append("\r\n")
                    column = 0
                } else {
                    append("\t")
                    column += 8
                }
            }
        }
        return out
    }
}

/// A small deterministic random generator (SplitMix64).
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Int(z % UInt64(bound))
    }
}
