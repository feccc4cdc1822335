/// A deterministic stream of what colourful line-oriented programs with some cursor work write
/// (`ls --color`, `git log --graph --color`, test runners with progress, `htop` redrawing a
/// line): an SGR change before almost every word (16, 256 and true colours, bold, underline,
/// inverse, resets), CJK and emoji among the words, cursor motion within and between lines
/// (CUF, CUB, CHA, CUU, CUD, now and then a CUP near the bottom), erases to the end of the line,
/// and CRLFs that, the cursor staying near the bottom, scroll most lines into the scrollback.
enum DenseMixedStream {
    static func generate(bytes target: Int, seed: UInt64) -> [UInt8] {
        var random = SplitMix(seed: seed)
        var out: [UInt8] = []
        out.reserveCapacity(target + 256)
        let words = ["src", "main.swift", "README.md", "commit", "a3f9c2e", "Merge", "branch", "fix:", "parser",
                     "12.4K", "drwxr-xr-x", "PASS", "FAIL", "42ms", "[====>   ]", "user", "root", "%CPU", "0.0", "--"]
        let wide = ["中文", "日本語", "한국어", "字", "😀", "🚀", "🎉", "✅", "ｗｉｄｅ", "漢字テスト"]
        var column = 0
        var row = 23
        func append(_ text: String) { out.append(contentsOf: Array(text.utf8)) }
        func sgr() {
            switch random.next(12) {
            case 0, 1: append("\u{1B}[0m")
            case 2: append("\u{1B}[m")
            case 3: append("\u{1B}[1;3\(random.next(8))m")
            case 4: append("\u{1B}[3\(random.next(8))m")
            case 5: append("\u{1B}[9\(random.next(8))m")
            case 6: append("\u{1B}[38;5;\(random.next(256))m")
            case 7: append("\u{1B}[48;5;\(random.next(256))m")
            case 8: append("\u{1B}[38;2;\(random.next(256));\(random.next(256));\(random.next(256))m")
            case 9: append("\u{1B}[4;7m")
            case 10: append("\u{1B}[22;24;27;39;49m")
            default: append("\u{1B}[01;34m")
            }
        }
        while out.count < target {
            switch random.next(100) {
            case 0..<56:
                // A word behind an SGR change.
                sgr()
                let word = words[random.next(words.count)]
                append(word + " ")
                column += word.count + 1
            case 56..<74:
                // CJK or emoji, most often behind an SGR change.
                if random.next(4) != 0 { sgr() }
                let text = wide[random.next(wide.count)]
                append(text)
                column += text.unicodeScalars.count * 2
            case 74..<86:
                // Cursor motion within the line or to a neighbouring one.
                switch random.next(6) {
                case 0: append("\u{1B}[\(1 + random.next(8))C"); column += 4
                case 1: append("\u{1B}[\(1 + random.next(8))D"); column = max(0, column - 4)
                case 2:
                    let target = random.next(70)
                    append("\u{1B}[\(target + 1)G"); column = target
                case 3:
                    append("\u{1B}[A"); row = max(0, row - 1)
                case 4:
                    append("\u{1B}[B"); row = min(23, row + 1)
                default:
                    // Back to a line near the bottom, as a redrawn status line is.
                    row = 18 + random.next(6)
                    column = random.next(60)
                    append("\u{1B}[\(row + 1);\(column + 1)H")
                }
            case 86..<90:
                append("\u{1B}[K")
            default:
                if column > 60 || random.next(3) == 0 {
                    // The end of a line: mostly a plain CRLF, sometimes after a reset and an erase.
                    append(random.next(4) == 0 ? "\u{1B}[0m\u{1B}[K\r\n" : "\r\n")
                    column = 0
                    row = min(23, row + 1)
                } else {
                    append("\t")
                    column += 8
                }
            }
        }
        return out
    }
}
