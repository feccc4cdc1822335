import Foundation
import TerminalEmulator

// Emulator parse throughput: ours vs pyte vs libvterm on the same generated streams (20 MiB of
// mixed ANSI, 20 MiB of scroll-heavy lines), one table per stream.
// Run: sh Benchmarks/EmulatorBenchmark/setup.sh
//      swift build -c release --product EmulatorBenchmark && .build/release/EmulatorBenchmark [--stream mixed|scroll|both] [--size MiB] [--runs N]

let options = BenchmarkOptions.parse(Array(CommandLine.arguments.dropFirst()))
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("emulator-benchmark-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let sourceDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

for (index, kind) in options.streams.enumerated() {
    let stream = kind.generate(bytes: options.mebibytes << 20)
    let streamFile = directory.appendingPathComponent("\(kind.rawValue).bin")
    try Data(stream).write(to: streamFile)

    if index > 0 { print("") }
    print("Stream: \(options.mebibytes) MiB \(kind.title), \(options.cols)x\(options.rows), 4096-byte chunks")
    var results: [(name: String, seconds: Double?, note: String)] = []

    let ours = OurEmulator.bestTime(stream, cols: options.cols, rows: options.rows, runs: options.runs)
    results.append(("TerminalEmulator (ours)", ours.seconds, "best of \(options.runs), scrollback 10,000 lines (\(ours.scrolledOff) scrolled off)"))
    results.append(Peers.libvterm(file: streamFile, sourceDirectory: sourceDirectory, workDirectory: directory, options: options))
    results.append(Peers.pyte(file: streamFile, sourceDirectory: sourceDirectory, options: options))
    printTable(results, size: Double(stream.count) / 1_048_576, ours: ours.seconds)
}
print("\n(MB/s = MiB of input per second; \"ours vs it\" = how many times faster ours is.)")

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
