import Foundation

/// Command-line options of the benchmark.
struct BenchmarkOptions {
    var mebibytes = 20
    var runs = 5
    var pyteRuns = 1
    var cols = 80
    var rows = 24
    /// The streams to measure, in this order (`--stream mixed|scroll|dense|all`, default all).
    var streams = BenchmarkStream.allCases
    /// `--peers none`: only ours is fed (for a profiler run); `--pyte-runs 0` skips pyte alone.
    var peers = true
    /// `--file PATH`: a captured stream measured instead of the generated ones.
    var file: String?

    static let usage = "usage: EmulatorBenchmark [--stream mixed|scroll|dense|all] [--size MiB] [--runs N] [--pyte-runs N (0 skips pyte)] [--peers all|none] [--file PATH]\n"

    static func parse(_ arguments: [String]) -> BenchmarkOptions {
        var options = BenchmarkOptions()
        var index = 0
        while index < arguments.count {
            let text = index + 1 < arguments.count ? arguments[index + 1] : nil
            let value = text.flatMap { Int($0) }
            switch (arguments[index], value, text) {
            case ("--size", let value?, _): options.mebibytes = max(1, value)
            case ("--runs", let value?, _): options.runs = max(1, value)
            case ("--pyte-runs", let value?, _): options.pyteRuns = max(0, value)
            case ("--file", _, let path?):
                guard FileManager.default.isReadableFile(atPath: path) else {
                    FileHandle.standardError.write(Data("EmulatorBenchmark: cannot read \(path)\n".utf8))
                    exit(66)
                }
                options.file = path
            case ("--peers", _, "all"): options.peers = true
            case ("--peers", _, "none"): options.peers = false
            case ("--stream", _, "all"): options.streams = BenchmarkStream.allCases
            case ("--stream", _, let name?) where BenchmarkStream(rawValue: name) != nil:
                options.streams = [BenchmarkStream(rawValue: name)!]
            default:
                FileHandle.standardError.write(Data(usage.utf8))
                exit(64)
            }
            index += 2
        }
        return options
    }
}
