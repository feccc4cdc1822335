/// A deterministic stream of what line-oriented programs write (`seq`, logs, compiler output,
/// diffs): whole lines ending in CRLF, plain or SGR-coloured, most shorter than the screen is
/// wide and a few wrapping, so the screen scrolls on nearly every line.
enum ScrollHeavyStream {
    static func generate(bytes target: Int, seed: UInt64) -> [UInt8] {
        var random = SplitMix(seed: seed)
        var out: [UInt8] = []
        out.reserveCapacity(target + 512)
        let levels = ["\u{1B}[32mINFO\u{1B}[0m ", "\u{1B}[33mWARN\u{1B}[0m ", "\u{1B}[1;31mERROR\u{1B}[0m", "\u{1B}[2mDEBUG\u{1B}[0m"]
        let words = ["request", "handled", "in", "ms", "status=200", "worker", "cache", "miss", "hit", "user",
                     "session", "opened", "closed", "retrying", "connection", "to", "db", "timeout", "ok", "done"]
        let files = ["Sources/App/Server.swift", "Sources/Core/Parser.swift", "Tests/CoreTests/ParserTests.swift",
                     "Harness/TerminalEmulator/Screen/Screen.swift"]
        let messages = ["cannot convert value of type 'Int' to expected argument type 'String'",
                        "variable 'index' was never mutated; consider changing to 'let' constant",
                        "initialization of immutable value 'result' was never used",
                        "expected ',' separator"]
        var number = 1
        var time = 0
        func append(_ text: String) { out.append(contentsOf: Array(text.utf8)) }
        func sentence(_ count: Int) -> String {
            (0..<count).map { _ in words[random.next(words.count)] }.joined(separator: " ")
        }
        while out.count < target {
            switch random.next(100) {
            case 0..<35:
                // seq: a number per line.
                append("\(number)\r\n")
                number += 1
            case 35..<60:
                // A log line: timestamp, coloured level, words.
                time += 1 + random.next(900)
                let stamp = "12:\(pad(time / 60_000 % 60)):\(pad(time / 1000 % 60)).\(pad(time % 1000, 3))"
                append("2024-05-01 \(stamp) \(levels[random.next(levels.count)]) [worker-\(random.next(8))] \(sentence(3 + random.next(6)))\r\n")
            case 60..<75:
                // Compiler output: bold location, coloured severity; some longer than a row.
                let severity = random.next(3) == 0 ? "\u{1B}[1;31merror:\u{1B}[0m" : "\u{1B}[1;35mwarning:\u{1B}[0m"
                append("\u{1B}[1m\(files[random.next(files.count)]):\(1 + random.next(900)):\(1 + random.next(80)):\u{1B}[0m \(severity) \u{1B}[1m\(messages[random.next(messages.count)])\u{1B}[0m\r\n")
            case 75..<85:
                // A diff line in 256 or true colours.
                if random.next(2) == 0 {
                    append("\u{1B}[38;5;\(28 + random.next(6))m+ \(sentence(2 + random.next(8)))\u{1B}[m\r\n")
                } else {
                    append("\u{1B}[38;2;\(180 + random.next(76));40;40m- \(sentence(2 + random.next(8)))\u{1B}[m\r\n")
                }
            default:
                // Plain text up to about a row, and a blank line now and then.
                append(random.next(8) == 0 ? "\r\n" : "\(sentence(1 + random.next(12)))\r\n")
            }
        }
        return out
    }

    private static func pad(_ value: Int, _ width: Int = 2) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
