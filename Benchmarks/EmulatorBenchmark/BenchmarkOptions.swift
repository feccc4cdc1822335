import Foundation

/// Command-line options of the benchmark.
struct BenchmarkOptions {
    var mebibytes = 20
    var runs = 5
    var pyteRuns = 1
    var cols = 80
    var rows = 24

    static func parse(_ arguments: [String]) -> BenchmarkOptions {
        var options = BenchmarkOptions()
        var index = 0
        while index < arguments.count {
            let value = index + 1 < arguments.count ? Int(arguments[index + 1]) : nil
            switch (arguments[index], value) {
            case ("--size", let value?): options.mebibytes = max(1, value)
            case ("--runs", let value?): options.runs = max(1, value)
            case ("--pyte-runs", let value?): options.pyteRuns = max(1, value)
            default:
                FileHandle.standardError.write(Data("usage: EmulatorBenchmark [--size MiB] [--runs N] [--pyte-runs N]\n".utf8))
                exit(64)
            }
            index += 2
        }
        return options
    }
}
