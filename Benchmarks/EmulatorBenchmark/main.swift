import Foundation
import TerminalEmulator

// Emulator parse throughput: ours vs pyte vs libvterm on the same generated streams (20 MiB each
// of mixed ANSI, scroll-heavy lines and SGR-dense mixed output), one table per stream, then
// ours against libvterm in one line per stream.
// Run: sh Benchmarks/EmulatorBenchmark/setup.sh
//      swift build -c release --product EmulatorBenchmark && .build/release/EmulatorBenchmark [--stream mixed|scroll|dense|all] [--size MiB] [--runs N]

let options = BenchmarkOptions.parse(Array(CommandLine.arguments.dropFirst()))
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("emulator-benchmark-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let sourceDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
var summary: [(name: String, ours: Double, libvterm: Double, size: Double)] = []
// `--file PATH` measures a captured stream instead of the generated ones.
let inputs: [(name: String, title: String, bytes: () throws -> [UInt8])] = options.file.map { path in
    [("file", "from \(path)", { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) })]
} ?? options.streams.map { kind in
    (kind.rawValue, "\(options.mebibytes) MiB \(kind.title)", { kind.generate(bytes: options.mebibytes << 20) })
}

for (index, input) in inputs.enumerated() {
    let stream = try input.bytes()
    let streamFile = directory.appendingPathComponent("\(input.name).bin")
    try Data(stream).write(to: streamFile)

    if index > 0 { print("") }
    print("Stream: \(input.title), \(options.cols)x\(options.rows), 4096-byte chunks")
    var results: [(name: String, seconds: Double?, note: String)] = []

    let ours = OurEmulator.bestTime(stream, cols: options.cols, rows: options.rows, runs: options.runs)
    results.append(("TerminalEmulator (ours)", ours.seconds, "best of \(options.runs), scrollback 10,000 lines (\(ours.scrolledOff) scrolled off)"))
    if options.peers {
        let libvterm = Peers.libvterm(file: streamFile, sourceDirectory: sourceDirectory, workDirectory: directory, options: options)
        results.append(libvterm)
        if let seconds = libvterm.seconds { summary.append((input.name, ours.seconds, seconds, Double(stream.count) / 1_048_576)) }
        if options.pyteRuns > 0 {
            results.append(Peers.pyte(file: streamFile, sourceDirectory: sourceDirectory, options: options))
        }
    }
    printTable(results, size: Double(stream.count) / 1_048_576, ours: ours.seconds)
}
print("\n(MB/s = MiB of input per second; \"ours vs it\" = how many times faster ours is.)")
if !summary.isEmpty {
    print("\nOurs against libvterm, same run (scrollback and printed-text stream on):")
    for (name, ours, libvterm, size) in summary {
        print("  \(name.padding(toLength: 7, withPad: " ", startingAt: 0)) ours \(format(size / ours, 6, 1)) MB/s, libvterm \(format(size / libvterm, 6, 1)) MB/s: \(format(libvterm / ours, 4, 2))x libvterm")
    }
}

func printTable(_ results: [(name: String, seconds: Double?, note: String)], size: Double, ours: Double) {
    print("")
    print("| emulator                  |   seconds |      MB/s | ours vs it | note")
    print("|---------------------------|-----------|-----------|------------|------")
    for result in results {
        guard let seconds = result.seconds else {
            print("| \(result.name.padding(toLength: 25, withPad: " ", startingAt: 0)) |         - |         - |          - | \(result.note)")
            continue
        }
        let throughput = size / seconds
        let ratio = seconds / ours
        print("| \(result.name.padding(toLength: 25, withPad: " ", startingAt: 0)) | \(format(seconds, 9, 4)) | \(format(throughput, 9, 1)) | \(format(ratio, 9, 2))x | \(result.note)")
    }
}

func format(_ value: Double, _ width: Int, _ decimals: Int) -> String {
    let text = String(format: "%.\(decimals)f", value)
    return String(repeating: " ", count: max(0, width - text.count)) + text
}
