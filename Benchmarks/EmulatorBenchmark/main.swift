import Foundation
import TerminalEmulator

// Emulator parse throughput: ours vs pyte vs libvterm on the same generated 20 MiB stream.
// Run: sh Benchmarks/EmulatorBenchmark/setup.sh
//      swift build -c release --product EmulatorBenchmark && .build/release/EmulatorBenchmark [--size MiB] [--runs N]

let options = BenchmarkOptions.parse(Array(CommandLine.arguments.dropFirst()))
let stream = MixedANSIStream.generate(bytes: options.mebibytes << 20, seed: 0x5EED)
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("emulator-benchmark-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let streamFile = directory.appendingPathComponent("stream.bin")
try Data(stream).write(to: streamFile)

print("Stream: \(options.mebibytes) MiB mixed ANSI (SGR, cursor moves, erases, CRLF, CJK, emoji), \(options.cols)x\(options.rows), 4096-byte chunks")
var results: [(name: String, seconds: Double?, note: String)] = []

let ours = OurEmulator.bestTime(stream, cols: options.cols, rows: options.rows, runs: options.runs)
results.append(("TerminalEmulator (ours)", ours, "best of \(options.runs)"))

let sourceDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
results.append(Peers.libvterm(file: streamFile, sourceDirectory: sourceDirectory, workDirectory: directory, options: options))
results.append(Peers.pyte(file: streamFile, sourceDirectory: sourceDirectory, options: options))

let size = Double(stream.count) / 1_048_576
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
print("\n(MB/s = MiB of input per second; \"ours vs it\" = how many times faster ours is.)")

func format(_ value: Double, _ width: Int, _ decimals: Int) -> String {
    let text = String(format: "%.\(decimals)f", value)
    return String(repeating: " ", count: max(0, width - text.count)) + text
}
