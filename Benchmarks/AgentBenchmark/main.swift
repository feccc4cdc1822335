import Foundation

// AgentBenchmark: an agent's session of 50 `harness mcp` tool calls (launch bc, 16 rounds of
// type / press / wait_for, close), each sent after the previous answer as an MCP client does,
// against the same steps as a flow run by `harness run`; each measured as a whole process,
// median of several rounds, alternating.
//
//   swift build -c release --product harness && swift build -c release --product AgentBenchmark
//   .build/release/AgentBenchmark [--rounds N]

/// Why the benchmark cannot run.
struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
}

let arguments = CommandLine.arguments
let rounds = arguments.firstIndex(of: "--rounds").flatMap { Int(arguments[$0 + 1]) } ?? 7
let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
let harness = products.appendingPathComponent("harness").path
let sums = (1...16).map { (typed: "\($0)+1000", shown: "\(1000 + $0)") }

/// The flow: the same 48 steps after the launch.
let flowText = (["app bc -q", "size 80x24", "launch"]
    + sums.flatMap { [#"type "\#($0.typed)""#, "press enter", #"expect "\#($0.shown)""#] }).joined(separator: "\n") + "\n"

/// The agent's 50 calls.
let calls: [String] = [#""name":"launch","arguments":{"program":"bc","args":["-q"],"size":"80x24"}"#]
    + sums.flatMap { sum in [
        #""name":"type","arguments":{"session":"s1","text":"\#(sum.typed)"}"#,
        #""name":"press","arguments":{"session":"s1","keys":["enter"]}"#,
        #""name":"wait_for","arguments":{"session":"s1","text":"\#(sum.shown)"}"#,
    ] } + [#""name":"close","arguments":{"session":"s1"}"#]

func run(_ executable: String, _ arguments: [String], in folder: URL, input: Pipe? = nil, output: Pipe) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = folder
    process.standardInput = input ?? FileHandle.nullDevice
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
}

/// `harness run` on the flow, start to exit.
func measureFlow(in folder: URL) throws -> Duration {
    let output = Pipe()
    let start = ContinuousClock.now
    let process = try run(harness, ["run", "bench.flow"], in: folder, output: output)
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw BenchmarkError(description: "the flow failed:\n\(text)") }
    return ContinuousClock.now - start
}

/// `harness mcp` with the 50 calls, each written after the previous answer, start to exit.
func measureAgent(in folder: URL) throws -> Duration {
    let input = Pipe()
    let output = Pipe()
    let start = ContinuousClock.now
    let process = try run(harness, ["mcp"], in: folder, input: input, output: output)
    var pending = Data()
    for (index, call) in calls.enumerated() {
        let line = #"{"jsonrpc":"2.0","id":\#(index + 1),"method":"tools/call","params":{\#(call)}}"# + "\n"
        input.fileHandleForWriting.write(Data(line.utf8))
        while !pending.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw BenchmarkError(description: "harness mcp closed its output") }
            pending.append(chunk)
        }
        let end = pending.firstIndex(of: 0x0A)!
        let answer = String(decoding: pending[..<end], as: UTF8.self)
        pending = Data(pending[(end + 1)...])
        guard answer.contains(#""isError":false"#) else { throw BenchmarkError(description: "call \(index + 1) failed: \(answer)") }
    }
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    return ContinuousClock.now - start
}

func median(_ values: [Duration]) -> Duration { values.sorted()[values.count / 2] }
func milliseconds(_ duration: Duration) -> String {
    String(format: "%.0f ms", Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15)
}

do {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("agent-benchmark-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(flowText.utf8).write(to: folder.appendingPathComponent("bench.flow"))
    var flows: [Duration] = []
    var agents: [Duration] = []
    for _ in 0..<rounds {
        flows.append(try measureFlow(in: folder))
        agents.append(try measureAgent(in: folder))
    }
    let (flow, agent) = (median(flows), median(agents))
    print("50 steps on bc, median of \(rounds) rounds (whole processes):")
    print("  harness run (a flow):         \(milliseconds(flow))")
    print("  harness mcp (50 tool calls):  \(milliseconds(agent))")
    print(String(format: "  agent / flow: %.2fx", (agent / flow)))
} catch {
    FileHandle.standardError.write(Data("AgentBenchmark: \(error)\n".utf8))
    exit(1)
}
