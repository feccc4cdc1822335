/// What to run, read from the command line.
///
///   ScaleBenchmark [--quick] [--sessions 1,16,64,256] [--cycles N] [--launches N] [--lines N] [--timeout S]
struct ScaleOptions: Sendable {
    /// The session counts of the concurrent rounds, in order.
    var sessionCounts = [1, 16, 64, 256]
    /// Lines each session types (and awaits the echo of) in a concurrent round.
    var linesPerSession = 3
    /// Sequential launch, wait, teardown cycles.
    var cycles = 10_000
    /// Launches of each kind (ours, raw) for launch to first byte.
    var launches = 200
    /// The timeout of every wait, in seconds.
    var timeoutSeconds = 60

    static let usage = """
        usage: ScaleBenchmark [--quick] [--sessions 1,16,64,256] [--cycles N] [--launches N] [--lines N] [--timeout S]
          --quick        sessions 1,4,16; 500 cycles; 50 launches (for development)
          --sessions L   comma-separated counts of concurrent sessions (default 1,16,64,256)
          --lines N      lines each concurrent session types and awaits (default 3)
          --cycles N     sequential launch-wait-teardown cycles (default 10000)
          --launches N   launches of each kind for launch to first byte (default 200)
          --timeout S    timeout of every wait in seconds (default 60)
        """

    /// Parses the arguments after the program name; later options override `--quick`.
    static func parse(_ arguments: [String]) throws(ScaleBenchmarkError) -> ScaleOptions {
        var options = ScaleOptions()
        var remaining = arguments[...]
        if remaining.contains("--quick") {
            options.sessionCounts = [1, 4, 16]
            options.cycles = 500
            options.launches = 50
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--quick":
                continue
            case "--help", "-h":
                throw .usage(nil)
            case "--sessions":
                let value = try value(of: argument, in: &remaining)
                let counts = value.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
                guard !counts.isEmpty, counts.allSatisfy({ ($0 ?? 0) >= 1 }) else {
                    throw .usage("--sessions needs comma-separated counts of at least 1, got \(value.debugDescription)")
                }
                options.sessionCounts = counts.compactMap { $0 }
            case "--lines":
                options.linesPerSession = try positive(of: argument, in: &remaining)
            case "--cycles":
                options.cycles = try positive(of: argument, in: &remaining)
            case "--launches":
                options.launches = try positive(of: argument, in: &remaining)
            case "--timeout":
                options.timeoutSeconds = try positive(of: argument, in: &remaining)
            default:
                throw .usage("unknown argument \(argument.debugDescription)")
            }
        }
        return options
    }

    private static func value(of option: String, in remaining: inout ArraySlice<String>) throws(ScaleBenchmarkError) -> String {
        guard let value = remaining.popFirst() else { throw .usage("\(option) needs a value") }
        return value
    }

    private static func positive(of option: String, in remaining: inout ArraySlice<String>) throws(ScaleBenchmarkError) -> Int {
        let text = try value(of: option, in: &remaining)
        guard let number = Int(text), number >= 1 else {
            throw .usage("\(option) needs a whole number of at least 1, got \(text.debugDescription)")
        }
        return number
    }
}
