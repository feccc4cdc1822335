import Foundation

// FlowBenchmark: the bundled todo flows (Tests/Flows/*.flow, six of them) run by `harness run`
// against the same flows written as pexpect and Tcl expect scripts, each measured as a whole
// process (start-up, stub server, every app launch, teardown), median of several rounds.
//
//   Benchmarks/FlowBenchmark/setup.sh
//   swift build -c release --product harness && swift build -c release --product FlowBenchmark
//   .build/release/FlowBenchmark [--rounds N]

/// One contender: a name and the command that runs the six flows.
struct Contender {
    var name: String
    var executable: String
    var arguments: [String]
}

/// Why the benchmark cannot run.
struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
}

/// Runs `contender` from `directory`; returns the wall time, or throws with its output.
func measure(_ contender: Contender, in directory: URL) throws -> Duration {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: contender.executable)
    process.arguments = contender.arguments
    process.currentDirectoryURL = directory
    var environment = ProcessInfo.processInfo.environment
    environment["CI"] = "1"  // snapshots are compared, never recorded
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    process.standardInput = FileHandle.nullDevice
    let clock = ContinuousClock()
    let start = clock.now
    try process.run()
    let text = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let elapsed = clock.now - start
    guard process.terminationStatus == 0 else {
        throw BenchmarkError(description: "\(contender.name) failed (status \(process.terminationStatus)):\n"
                             + String(decoding: text, as: UTF8.self))
    }
    return elapsed
}

/// The path of `name` in `PATH`, or nil.
func which(_ name: String) -> String? {
    for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
        let path = "\(folder)/\(name)"
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func main() throws {
    var rounds = 7
    let arguments = Array(CommandLine.arguments.dropFirst())
    if let index = arguments.firstIndex(of: "--rounds"), index + 1 < arguments.count, let value = Int(arguments[index + 1]), value > 0 {
        rounds = value
    }
    let products = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let harness = products.appendingPathComponent("harness").path
    let todo = products.appendingPathComponent("todo").path
    for path in [harness, todo] where !FileManager.default.isExecutableFile(atPath: path) {
        throw BenchmarkError(description: "\(path) is missing: swift build -c release --product harness")
    }
    guard let python = which("python3"), let expect = which("expect") else {
        throw BenchmarkError(description: "python3 and expect are needed: run Benchmarks/FlowBenchmark/setup.sh")
    }
    let here = root.appendingPathComponent("Benchmarks/FlowBenchmark").path
    let filter = "^Tests/Flows/[^/]+\\.flow$"  // the todo flows, not third-party/
    let contenders = [
        Contender(name: "harness run --jobs 1", executable: harness, arguments: ["run", "Tests/Flows", "--filter", filter, "--jobs", "1"]),
        Contender(name: "harness run (2 jobs)", executable: harness, arguments: ["run", "Tests/Flows", "--filter", filter, "--jobs", "2"]),
        Contender(name: "pexpect", executable: python, arguments: ["\(here)/todo_flows_pexpect.py", todo]),
        Contender(name: "Tcl expect", executable: expect, arguments: ["\(here)/todo_flows.exp", todo]),
    ]

    // One warm-up round (file caches, Python imports), then the measured rounds, interleaved.
    for contender in contenders { _ = try measure(contender, in: root) }
    var times: [String: [Double]] = [:]
    for _ in 0..<rounds {
        for contender in contenders {
            times[contender.name, default: []].append(seconds(try measure(contender, in: root)))
        }
    }

    func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
    let baseline = median(times[contenders[0].name]!)
    print("Six todo flows (idle, loading, error, loaded, try-again, scroll-and-quit), whole process, \(rounds) rounds")
    print("contender".padding(toLength: 24, withPad: " ", startingAt: 0) + "  median     min    vs harness --jobs 1")
    for contender in contenders {
        let values = times[contender.name]!
        let line = contender.name.padding(toLength: 24, withPad: " ", startingAt: 0)
            + String(format: "  %6.3fs  %6.3fs  %5.2fx", median(values), values.min()!, median(values) / baseline)
        print(line)
    }
}

do {
    try main()
} catch {
    FileHandle.standardError.write(Data("FlowBenchmark: \(error)\n".utf8))
    exit(1)
}
