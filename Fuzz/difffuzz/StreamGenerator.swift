/// Builds the streams both emulators are fed: random ones from a grammar of what programs write
/// (text, wide and combining characters, controls, CSI/ESC/OSC/DCS sequences with parameters
/// near the edges), and seeds of the `vt` fuzz corpus mutated. Stream `index` of a seed is
/// always the same bytes.
struct StreamGenerator {
    /// The `vt` corpus seeds, their 4-byte fuzz header removed.
    let seeds: [(name: String, bytes: [UInt8])]

    enum Origin: CustomStringConvertible {
        case random
        case mutated(String)
        var description: String {
            switch self {
            case .random: return "random"
            case .mutated(let seed): return "mutated from \(seed)"
            }
        }
    }

    /// Stream `index` under `seed`, and the chunk boundaries at which screens are compared.
    func stream(seed: UInt64, index: Int) -> (bytes: [UInt8], cuts: [Int], origin: Origin) {
        var random = Random(seed: seed ^ (UInt64(index) &* 0x2545_F491_4F6C_DD1D))
        var bytes: [UInt8]
        let origin: Origin
        if !seeds.isEmpty && random.oneIn(2) {
            let seed = random.pick(seeds)
            bytes = mutate(seed.bytes, &random)
            origin = .mutated(seed.name)
        } else {
            bytes = []
            let tokens = random.within(5...400)
            for _ in 0..<tokens { bytes += token(&random) }
            origin = .random
        }
        var cuts = (0..<random.within(0...6)).map { _ in bytes.isEmpty ? 0 : random.below(bytes.count) }
        cuts.append(bytes.count)
        return (bytes, Array(Set(cuts)).sorted(), origin)
    }

    // MARK: - Mutations of a seed

    private func mutate(_ seed: [UInt8], _ random: inout Random) -> [UInt8] {
        // A window of the seed (long fixtures are cut), then 1-8 edits.
        var bytes = seed
        if bytes.count > 3000 {
            let start = random.below(bytes.count - 2000)
            bytes = Array(bytes[start..<min(bytes.count, start + random.within(500...3000))])
        }
        for _ in 0..<random.within(1...8) {
            let at = bytes.isEmpty ? 0 : random.below(bytes.count + 1)
            switch random.below(7) {
            case 0: bytes.insert(contentsOf: token(&random), at: at)
            case 1 where at < bytes.count: bytes[at] = UInt8(truncatingIfNeeded: random.next())
            case 2 where at < bytes.count: bytes.removeSubrange(at..<min(bytes.count, at + random.within(1...16)))
            case 3 where at < bytes.count:
                let piece = bytes[at..<min(bytes.count, at + random.within(1...64))]
                bytes.insert(contentsOf: piece, at: random.below(bytes.count + 1))
            case 4:
                let other = random.pick(seeds).bytes
                if !other.isEmpty {
                    let start = random.below(other.count)
                    bytes.insert(contentsOf: other[start..<min(other.count, start + random.within(1...256))], at: at)
                }
            case 5 where at < bytes.count && bytes[at] >= 0x30 && bytes[at] <= 0x39:
                bytes[at] = UInt8(0x30 + random.below(10))  // another digit: parameters move
            default: bytes.insert(contentsOf: token(&random), at: at)
            }
        }
        return bytes
    }

    // MARK: - The grammar

    private func token(_ random: inout Random) -> [UInt8] {
        switch random.below(100) {
        case 0..<22: return text(&random)
        case 22..<32: return unicode(&random)
        case 32..<42: return control(&random)
        case 42..<80: return csi(&random)
        case 80..<88: return sgr(&random)
        case 88..<95: return escape(&random)
        case 95..<98: return string(&random)
        default: return junk(&random)
        }
    }

    private func text(_ random: inout Random) -> [UInt8] {
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,:;-_=+*/!?#%&()[]{}<>|~'`^@$\"\\".utf8)
        return (0..<random.within(1...30)).map { _ in random.pick(letters) }
    }

    /// Ranges of scalars: Latin-1 and Latin Extended, combining marks, Greek/Cyrillic, box
    /// drawing, CJK, Hangul syllables, fullwidth forms, emoji, ZWJ and variation selectors.
    private static let scalarRanges: [ClosedRange<UInt32>] = [
        0xA0...0x17F, 0x300...0x36F, 0x370...0x44F, 0x2500...0x257F, 0x4E00...0x4FFF,
        0xAC00...0xAD00, 0xFF01...0xFF5E, 0x1F300...0x1F64F, 0x200D...0x200D, 0xFE0F...0xFE0F,
        0x3040...0x30FF,
    ]

    private func unicode(_ random: inout Random) -> [UInt8] {
        var out: [UInt8] = []
        for _ in 0..<random.within(1...6) {
            let range = random.pick(Self.scalarRanges)
            let value = range.lowerBound + UInt32(random.below(range.count))
            if let scalar = Unicode.Scalar(value) { out += Array(String(scalar).utf8) }
        }
        return out
    }

    private func control(_ random: inout Random) -> [UInt8] {
        [random.pick([0x0D, 0x0A, 0x0A, 0x08, 0x09, 0x0B, 0x0C, 0x0E, 0x0F, 0x07, 0x00, 0x0D, 0x0A, 0x08])]
    }

    /// A parameter: mostly small, sometimes 0, missing, or large.
    private func parameter(_ random: inout Random) -> String {
        switch random.below(12) {
        case 0: return ""
        case 1: return "0"
        case 2: return String(random.within(20...300))
        case 3: return String(random.within(1000...70000))
        default: return String(random.within(1...12))
        }
    }

    private func csi(_ random: inout Random) -> [UInt8] {
        let finals = Array("@ABCDEFGHIJKLMPSTXZ`abdefghlmnrsu".utf8)
        if random.oneIn(8) {
            // A DEC private mode.
            let modes = [1, 3, 5, 6, 7, 25, 47, 69, 1047, 1048, 1049, 2004, 1000, 1006, 12, 2026, 66]
            let count = random.within(1...2)
            let list = (0..<count).map { _ in String(random.pick(modes)) }.joined(separator: ";")
            return Array("\u{1B}[?\(list)\(random.oneIn(2) ? "h" : "l")".utf8)
        }
        if random.oneIn(10) {
            let modes = ["4", "20", "4;20"]
            return Array("\u{1B}[\(random.pick(modes))\(random.oneIn(2) ? "h" : "l")".utf8)
        }
        if random.oneIn(20) {
            let other = ["\u{1B}[!p", "\u{1B}[?5W", "\u{1B}[2 q", "\u{1B}[>c", "\u{1B}[6n", "\u{1B}[?6n", "\u{1B}[3J", "\u{1B}[?1J", "\u{1B}[?2K"]
            return Array(random.pick(other).utf8)
        }
        let count = random.within(0...3)
        let parameters = (0..<count).map { _ in parameter(&random) }.joined(separator: ";")
        let final = random.pick(finals)
        return Array("\u{1B}[\(parameters)".utf8) + [final]
    }

    private func sgr(_ random: inout Random) -> [UInt8] {
        var codes: [String] = []
        for _ in 0..<random.within(1...4) {
            switch random.below(10) {
            case 0: codes.append(String(random.pick([0, 1, 3, 4, 5, 7, 9, 21, 22, 23, 24, 25, 27, 29, 39, 49])))
            case 1: codes.append(String(random.within(30...37)))
            case 2: codes.append(String(random.within(40...47)))
            case 3: codes.append(String(random.pick([90, 91, 97, 100, 101, 107])))
            case 4: codes.append("38;5;\(random.below(256))")
            case 5: codes.append("48;5;\(random.below(256))")
            case 6: codes.append("38;2;\(random.below(256));\(random.below(256));\(random.below(256))")
            case 7: codes.append("48:2::\(random.below(256)):\(random.below(256)):\(random.below(256))")
            case 8: codes.append(random.pick(["4:0", "4:1", "4:3", "38:5:\(random.below(256))", "2", "8", "28", "6"]))
            default: codes.append(String(random.within(1...9)))
            }
        }
        return Array("\u{1B}[\(codes.joined(separator: ";"))m".utf8)
    }

    private func escape(_ random: inout Random) -> [UInt8] {
        let sequences = ["\u{1B}7", "\u{1B}8", "\u{1B}D", "\u{1B}E", "\u{1B}H", "\u{1B}M", "\u{1B}c", "\u{1B}=", "\u{1B}>",
                         "\u{1B}#8", "\u{1B}(0", "\u{1B}(B", "\u{1B})0", "\u{1B}(A", "\u{1B}#3", "\u{1B}#6", "\u{1B}N", "\u{1B}n"]
        return Array(random.pick(sequences).utf8)
    }

    private func string(_ random: inout Random) -> [UInt8] {
        let terminator = random.oneIn(2) ? "\u{07}" : "\u{1B}\\"
        switch random.below(3) {
        case 0: return Array("\u{1B}]\(random.pick(["0", "2", "8;;", "52;c", "133"]));title \(random.below(100))\(terminator)".utf8)
        case 1: return Array("\u{1B}P+q544e\u{1B}\\".utf8)
        default: return Array("\u{1B}_apc\(terminator)".utf8)
        }
    }

    /// Bytes no program means: stray high bytes, truncated sequences.
    private func junk(_ random: inout Random) -> [UInt8] {
        switch random.below(3) {
        case 0: return (0..<random.within(1...4)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        case 1: return [0x1B]
        default: return Array("\u{1B}[".utf8) + [UInt8(0x20 + random.below(0x60))]
        }
    }
}
