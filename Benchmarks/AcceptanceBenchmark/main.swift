// The seed articles' four UI tests (idle, loading, loaded, error) through this harness, back to
// back and in parallel, next to the same four driven by pexpect and Tcl expect in the same run,
// and next to the figures the articles give for XCUITest, EarlGrey and in-process view tests.
//
//   Benchmarks/AcceptanceBenchmark/setup.sh
//   swift build -c release --product todo && swift build -c release --product AcceptanceBenchmark
//   .build/release/AcceptanceBenchmark [runs]
import Foundation
import Harness
import Stubs

let runs = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 7 : 7
let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
let todo = try BuildProducts.executable(named: "todo").path

struct Todo: Codable {
    var userId: Int
    var id: Int
    var title: String
    var completed: Bool
}

let todos = ["walk the dog", "apple pie", "call the bank", "buy milk"].enumerated().map {
    Todo(userId: 1, id: $0.offset + 1, title: $0.element, completed: false)
}

// One stub server for every driver: /ok/todos, /fail/todos (500), /hang/todos (never answers).
let server = try StubServer()
defer { server.stop() }
try server.stub(.get("/ok/todos"), .json(todos))
server.stub(.get("/fail/todos"), .text("boom", status: 500))
server.stub(.get("/hang/todos"), .hang)
let base = server.baseURL.absoluteString

func launch(_ route: String) -> AppLaunch {
    var launch = AppLaunch(executable: todo)
    launch.launchProtocol = .bridge
    launch.network = URL(string: "\(base)/\(route)")!
    return launch
}

// MARK: - The four tests, through the harness (PTY + stub network + sandbox + bridge)

func idle() async throws {
    try await TerminalApp.with(launch("ok")) { app in
        _ = try await app.session.waitFor(text: "[ Start ]")
    }
}

func loading() async throws {
    try await TerminalApp.with(launch("hang")) { app in
        _ = try await app.session.waitFor(text: "[ Start ]")
        try app.session.press(.enter)
        _ = try await app.session.waitFor(text: "Loading…")
        guard try await app.bridge.spy("database.save", as: [Todo].self).count == 0,
              !app.sandbox.exists("todos.json") else { throw BenchmarkError.failed("loading saved something") }
    }
}

func loaded() async throws {
    try await TerminalApp.with(launch("ok")) { app in
        _ = try await app.session.waitFor(text: "[ Start ]")
        try app.session.press(.enter)
        _ = try await app.session.waitFor(text: "[ ] apple pie")
        let saved = try await app.bridge.spy("database.save", as: [Todo].self).waitForCall(number: 1)
        guard saved.count == 4, app.sandbox.exists("todos.json") else { throw BenchmarkError.failed("loaded did not save") }
    }
}

func error() async throws {
    try await TerminalApp.with(launch("fail")) { app in
        _ = try await app.session.waitFor(text: "[ Start ]")
        try app.session.press(.enter)
        _ = try await app.session.waitFor(text: "[ Try again ]")
    }
}

enum BenchmarkError: Error { case failed(String) }

let four: [@Sendable () async throws -> Void] = [idle, loading, loaded, error]

func timed(_ body: () async throws -> Void) async throws -> Double {
    let start = ContinuousClock.now
    try await body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

func backToBack() async throws -> Double {
    try await timed { for test in four { try await test() } }
}

func parallel() async throws -> Double {
    try await timed {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for test in four { group.addTask { try await test() } }
            try await group.waitForAll()
        }
    }
}

/// Runs a peer script that prints `<name> <seconds>` and returns the seconds.
func peer(_ arguments: [String]) throws -> Double? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.standardError
    do { try process.run() } catch { return nil }
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return String(decoding: data, as: UTF8.self).split(separator: " ").last.flatMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

/// Where one idle test's time goes: launch to ready, ready to first screen, teardown.
func phases() async throws -> (launch: Double, screen: Double, close: Double) {
    let clock = ContinuousClock()
    let t0 = clock.now
    let app = try await TerminalApp.launch(launch("ok"))
    let t1 = clock.now
    _ = try await app.session.waitFor(text: "[ Start ]")
    let t2 = clock.now
    app.close(failed: false)
    let t3 = clock.now
    func ms(_ d: Duration) -> Double { Double(d.components.attoseconds) / 1e15 + Double(d.components.seconds) * 1e3 }
    return (ms(t1 - t0), ms(t2 - t1), ms(t3 - t2))
}

_ = try await backToBack()  // warm up: page cache, dynamic linker
var ours: [Double] = [], oursParallel: [Double] = []
var pexpectTimes: [Double] = [], pexpectParallel: [Double] = [], expectTimes: [Double] = []
let pexpectScript = here.appendingPathComponent("four_tests_pexpect.py").path
let expectScript = here.appendingPathComponent("four_tests.exp").path
for _ in 0 ..< runs {
    ours.append(try await backToBack())
    oursParallel.append(try await parallel())
    if let t = try peer(["python3", pexpectScript, todo, base]) { pexpectTimes.append(t) }
    if let t = try peer(["python3", pexpectScript, todo, base, "parallel"]) { pexpectParallel.append(t) }
    if let t = try peer(["expect", "-f", expectScript, todo, base]) { expectTimes.append(t) }
}

func row(_ name: String, _ seconds: Double?, _ reference: Double) -> String {
    guard let seconds else { return name.padding(toLength: 44, withPad: " ", startingAt: 0) + "   (not run: see setup.sh)" }
    return name.padding(toLength: 44, withPad: " ", startingAt: 0)
        + String(format: "%9.3f s   %8.1fx", seconds, seconds / reference)
}

var phaseSamples: [(launch: Double, screen: Double, close: Double)] = []
for _ in 0 ..< max(runs, 5) { phaseSamples.append(try await phases()) }

let reference = median(ours)
print("The four seed tests (idle, loading, loaded, error); median of \(runs) runs")
print("driver".padding(toLength: 44, withPad: " ", startingAt: 0) + "     time   vs harness")
print(row("harness, back to back (PTY+stubs+bridge)", median(ours), reference))
print(row("harness, in parallel", median(oursParallel), reference))
print(row("pexpect, back to back (delaybeforesend=0)", pexpectTimes.isEmpty ? nil : median(pexpectTimes), reference))
print(row("pexpect, in parallel (4 threads)", pexpectParallel.isEmpty ? nil : median(pexpectParallel), reference))
print(row("Tcl expect, back to back", expectTimes.isEmpty ? nil : median(expectTimes), reference))
print(row("article: XCUITest", 15, reference))
print(row("article: EarlGrey", 12, reference))
print(row("article: in-process view tests", 0.11, reference))
print("")
print(String(format: "one idle test, median: launch to bridge ready %.1f ms, to first screen %.1f ms, teardown %.1f ms",
             median(phaseSamples.map(\.launch)), median(phaseSamples.map(\.screen)), median(phaseSamples.map(\.close))))
