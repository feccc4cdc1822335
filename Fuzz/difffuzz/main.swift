// Differential fuzzing of our emulator against libvterm (docs/terminal-emulator.md,
// "Differential fuzzing against libvterm"). Built and run by Scripts/difffuzz.sh:
//
//   difffuzz [--seconds N | --streams N] [--seed S] [--corpus DIR] [--size COLSxROWS] [--reports N] [--list]
//   difffuzz --repro 'ESCAPED BYTES' [--cuts A,B]   compares one stream (fed in pieces ending at A, B...)
//   difffuzz --print-stream I [--seed S]  prints stream I, escaped
//
// Streams (random, and the `vt` fuzz corpus's seeds mutated) are fed to both emulators in pieces;
// after each piece the two screens are compared cell by cell (text, width, bold, underline,
// italic, blink, inverse, strikethrough, colours), and the cursor (position, visibility) and
// which screen is shown. A difference that no documented divergence explains is minimized and
// printed; the run then exits 1. The same seed gives the same streams.
import Foundation

struct Options {
    var seconds = 60.0
    var streams: Int?
    var seed: UInt64 = 1
    var corpus = "Fuzz/corpus/vt"
    var cols = 80, rows = 24
    var reports = 5
    var repro: [UInt8]?
    var printStream: Int?
    var cuts: [Int] = []
    /// Print every differing stream's number and kinds (not only one report per kind).
    var list = false
}

func usage(_ message: String) -> Never {
    FileHandle.standardError.write(Data("""
        difffuzz: \(message)
        usage: difffuzz [--seconds N | --streams N] [--seed S] [--corpus DIR] [--size COLSxROWS] [--reports N] [--list]
               difffuzz --repro 'ESCAPED BYTES'   (\\e ESC, \\r \\n \\t \\b, \\xHH a byte, \\u{HEX} a character)
               difffuzz --print-stream I [--seed S]

        """.utf8))
    exit(2)
}

func parseOptions() -> Options {
    var options = Options()
    var arguments = CommandLine.arguments.dropFirst()
    func value(_ name: String) -> String {
        guard let value = arguments.popFirst() else { usage("\(name) needs a value") }
        return value
    }
    while let argument = arguments.popFirst() {
        switch argument {
        case "--seconds":
            guard let seconds = Double(value(argument)), seconds > 0 else { usage("--seconds takes a positive number") }
            options.seconds = seconds
        case "--streams":
            guard let streams = Int(value(argument)), streams > 0 else { usage("--streams takes a positive whole number") }
            options.streams = streams
        case "--seed":
            guard let seed = UInt64(value(argument)) else { usage("--seed takes a whole number") }
            options.seed = seed
        case "--corpus": options.corpus = value(argument)
        case "--size":
            let parts = value(argument).split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2, (2...500).contains(parts[0]), (2...500).contains(parts[1]) else { usage("--size takes COLSxROWS, e.g. 80x24") }
            (options.cols, options.rows) = (parts[0], parts[1])
        case "--reports":
            guard let reports = Int(value(argument)), reports >= 0 else { usage("--reports takes a whole number") }
            options.reports = reports
        case "--repro":
            do { options.repro = try Escaping.unescape(value(argument)) } catch { usage("--repro: \(error)") }
        case "--cuts":
            let cuts = value(argument).split(separator: ",").compactMap { Int($0) }
            guard !cuts.isEmpty else { usage("--cuts takes offsets, e.g. 10,91") }
            options.cuts = cuts.sorted()
        case "--print-stream":
            guard let index = Int(value(argument)), index >= 0 else { usage("--print-stream takes a stream number") }
            options.printStream = index
        case "--list": options.list = true
        case "-h", "--help": usage("compares our emulator's screens with libvterm's")
        default: usage("unknown argument \(argument)")
        }
    }
    return options
}

/// The `vt` corpus seeds (their first 4 bytes are the fuzz target's header: sizes and a seed).
func loadSeeds(_ directory: String) -> [(name: String, bytes: [UInt8])] {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
        usage("cannot read the corpus folder \(directory)")
    }
    return names.sorted().compactMap { name in
        guard let data = FileManager.default.contents(atPath: directory + "/" + name), data.count > 4 else { return nil }
        return (name, Array(data.dropFirst(4)))
    }
}

func shellQuoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

func printDifference(_ difference: ScreenDifference, indent: String = "   ") {
    for line in difference.describe() { print(indent + line) }
}

setvbuf(stdout, nil, _IOLBF, 0)  // reports appear as they are found, also through a pipe
let options = parseOptions()
let comparison = Comparison(cols: options.cols, rows: options.rows, divergences: Divergences(rows: options.rows))
var explained: [String: Int] = [:]

if let bytes = options.repro {
    let result = comparison.run(bytes, cuts: options.cuts.filter { $0 < bytes.count } + [bytes.count], explained: &explained)
    print("difffuzz: \(bytes.count) bytes, \(options.cols)x\(options.rows): " + (result == nil ? "same screens" : "screens differ"))
    for (rule, count) in explained.sorted(by: { $0.key < $1.key }) { print("   explained by \(rule): \(count)") }
    if let result { printDifference(result.difference) }
    exit(result == nil ? 0 : 1)
}

let generator = StreamGenerator(seeds: loadSeeds(options.corpus))
let watchdog = Watchdog()
if let index = options.printStream {
    let stream = generator.stream(seed: options.seed, index: index)
    print(Escaping.escape(stream.bytes))
    print("pieces end at: \(stream.cuts.map(String.init).joined(separator: ", ")) (\(stream.origin))")
    exit(0)
}
let clock = ContinuousClock()
let started = clock.now
var streams = 0, bytesFed = 0, differing = 0
var reported: Set<[String]> = []
var minimizations = 0
while true {
    if let limit = options.streams {
        if streams >= limit { break }
    } else if clock.now - started >= .seconds(options.seconds) {
        break
    }
    let index = streams
    let stream = generator.stream(seed: options.seed, index: index)
    streams += 1
    bytesFed += stream.bytes.count
    watchdog.working(on: "stream \(index) of seed \(options.seed)", stream.bytes)
    var scratch: [String: Int] = [:]
    guard let found = comparison.run(stream.bytes, cuts: stream.cuts, explained: &explained) else { continue }
    differing += 1
    if options.list { print("differs: stream \(index) (\(found.difference.kinds.joined(separator: ", ")))") }
    guard minimizations < options.reports * 2, reported.count < options.reports else { continue }
    minimizations += 1
    let prefix = Array(stream.bytes[..<found.offset])
    watchdog.working(on: "minimizing stream \(index) of seed \(options.seed)", prefix)
    var minimizer = Minimizer { candidate in
        watchdog.working(on: "a shortened stream \(index) of seed \(options.seed)", candidate)
        return comparison.run(candidate, cuts: [candidate.count], explained: &scratch) != nil
    }
    // The prefix fed whole should show it too; when only the pieces do, report the pieces' stream.
    let small = comparison.run(prefix, cuts: [prefix.count], explained: &scratch) != nil ? minimizer.minimize(prefix) : prefix
    let shown = comparison.run(small, cuts: small.count == prefix.count ? stream.cuts : [small.count], explained: &scratch)?.difference ?? found.difference
    guard reported.insert(shown.kinds).inserted else { continue }
    let escaped = Escaping.escape(small)
    print("== difference (\(shown.kinds.joined(separator: ", "))) in stream \(index) of seed \(options.seed) (\(stream.origin), \(stream.bytes.count) bytes, seen after \(found.offset)); minimized to \(small.count) bytes:")
    print("   \"\(escaped)\"")
    printDifference(shown)
    let pieces = small.count == prefix.count && stream.cuts.count > 1
        ? " --cuts " + stream.cuts.filter { $0 < small.count }.map(String.init).joined(separator: ",") : ""
    print("   replay: Scripts/difffuzz.sh --repro \(shellQuoted(escaped))\(pieces)")
}

let elapsed = clock.now - started
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
let megabytes = Double(bytesFed) / 1_000_000
print(String(format: "difffuzz: %d streams, %.1f MB, %dx%d, seed %llu, %.0f s: %d with a difference",
             streams, megabytes, options.cols, options.rows, options.seed, seconds, differing)
      + (differing > reported.count ? " (\(reported.count) kinds shown)" : ""))
for (rule, count) in explained.sorted(by: { $0.key < $1.key }) {
    print("   documented divergence \(rule): skipped \(count) times")
}
exit(differing == 0 ? 0 : 1)
