import Foundation
import HarnessSystem
import Stubs

// StubServerBenchmark: latency and throughput of a GET of a 200-todo JSON document, against our
// StubServer (in process, and the stub-server executable), `python3 -m http.server` and
// pytest-httpserver, with the same small Swift load client. Run Benchmarks/StubServerBenchmark/setup.sh first.
//
//   swift build -c release --product stub-server && swift build -c release --product StubServerBenchmark
//   .build/release/StubServerBenchmark [--quick]

struct Peer {
    let name: String
    let port: UInt16
    let stop: () -> Void
}

struct Figures {
    var keepAliveMedian = 0.0, keepAliveP99 = 0.0
    var newConnectionMedian = 0.0, newConnectionP99 = 0.0
    var oneClientRate = 0.0, sixteenClientRate = 0.0
}

let quick = CommandLine.arguments.contains("--quick")
let latencySamples = quick ? 500 : 3000
let throughputDuration: TimeInterval = quick ? 0.5 : 2

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data(("StubServerBenchmark: " + message + "\n").utf8))
    exit(1)
}

// MARK: - The document

struct Todo: Codable {
    var id: Int
    var title: String
    var done: Bool
    var notes: String
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stub-benchmark-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let todos = (1...200).map { Todo(id: $0, title: "Todo number \($0)", done: $0 % 3 == 0, notes: "Some notes about todo \($0).") }
let document = try JSONEncoder().encode(todos)
let documentURL = directory.appendingPathComponent("todos")
try document.write(to: documentURL)
let mappingURL = directory.appendingPathComponent("mappings.json")
try Data(#"{"mappings": [{"request": {"method": "GET", "path": "/todos"}, "response": {"status": 200, "bodyFile": "todos", "headers": {"Content-Type": "application/json"}}}]}"#.utf8)
    .write(to: mappingURL)

// MARK: - Peers

/// Starts a process and waits (with a deadline) for its first stdout line.
func startProcess(_ executable: String, _ arguments: [String], firstLineTimeout: TimeInterval = 20) throws -> (Process, String, Pipe) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe(), input = Pipe()
    process.standardOutput = output
    process.standardInput = input
    process.standardError = FileHandle.nullDevice
    try process.run()
    let box = LineBox()
    let handle = output.fileHandleForReading
    Thread.detachNewThread {
        var bytes: [UInt8] = []
        while !bytes.contains(10) {
            let data = handle.availableData
            if data.isEmpty { break }
            bytes += data
        }
        box.set(String(decoding: bytes.prefix { $0 != 10 }, as: UTF8.self))
    }
    guard let line = box.wait(timeout: firstLineTimeout) else {
        process.terminate()
        throw SocketError(operation: "start \(executable)", code: ETIMEDOUT)
    }
    return (process, line, input)
}

final class LineBox: Sendable {
    private let line = Locked<String?>(nil)
    func set(_ value: String) { line.withLockNotifying { $0 = value } }
    func wait(timeout: TimeInterval) -> String? {
        line.wait(until: { $0 != nil }, deadline: MonotonicClock.deadline(after: .seconds(timeout)))
        return line.withLock { $0 }
    }
}

func stopProcess(_ process: Process, _ input: Pipe) {
    try? input.fileHandleForWriting.close()
    if process.isRunning { BenchmarkSocket.terminate(process.processIdentifier) }
    process.waitUntilExit()
}

func port(of url: String) -> UInt16 {
    guard let port = URL(string: url)?.port else { fail("no port in \(url)") }
    return UInt16(port)
}

var peers: [Peer] = []

let inProcess = try StubServer()
inProcess.stub(.get("/todos"), .file(documentURL, contentType: "application/json"))
peers.append(Peer(name: "StubServer", port: inProcess.port, stop: { inProcess.stop() }))

let productsDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
let stubServerPath = productsDirectory.appendingPathComponent("stub-server").path
if FileManager.default.isExecutableFile(atPath: stubServerPath) {
    let (process, line, input) = try startProcess(stubServerPath, ["--mappings", mappingURL.path])
    peers.append(Peer(name: "stub-server", port: port(of: line), stop: { stopProcess(process, input) }))
} else {
    FileHandle.standardError.write(Data("note: \(stubServerPath) not built; skipping the standalone stub-server\n".utf8))
}

let python = ["/usr/bin/env", "python3"]
do {
    let freePort = try BenchmarkSocket.freePort()
    let (process, _, input) = try startProcess(
        python[0], [python[1], "-u", "-m", "http.server", "--protocol", "HTTP/1.1", "--bind", "127.0.0.1", "--directory", directory.path, "\(freePort)"]
    )
    peers.append(Peer(name: "http.server", port: freePort, stop: { stopProcess(process, input) }))
} catch {
    fail("cannot start python3 -m http.server: \(error)")
}

let peerScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("pytest_httpserver_peer.py").path
do {
    let (process, line, input) = try startProcess(python[0], [python[1], "-u", peerScript, documentURL.path])
    guard line.hasPrefix("http://") else { fail("pytest-httpserver printed \(line); run Benchmarks/StubServerBenchmark/setup.sh") }
    peers.append(Peer(name: "pytest-httpserver", port: port(of: line), stop: { stopProcess(process, input) }))
} catch {
    fail("cannot start pytest-httpserver (\(error)); run Benchmarks/StubServerBenchmark/setup.sh")
}

// MARK: - Load

let keepAliveRequest = Array("GET /todos HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n\r\n".utf8)
let closingRequest = Array("GET /todos HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\nConnection: close\r\n\r\n".utf8)

/// One GET on a kept-alive connection, reconnecting if the server closed it.
func keepAliveGet(_ socket: inout BenchmarkSocket?, port: UInt16) throws {
    if socket == nil { socket = try BenchmarkSocket(port: port) }
    try socket!.send(keepAliveRequest)
    let (status, closes) = try socket!.readResponse()
    guard status == 200 else { throw SocketError(operation: "GET /todos returned \(status)", code: EPROTO) }
    if closes { socket = nil }
}

func newConnectionGet(port: UInt16) throws {
    let socket = try BenchmarkSocket(port: port)
    try socket.send(closingRequest)
    let (status, _) = try socket.readResponse()
    guard status == 200 else { throw SocketError(operation: "GET /todos returned \(status)", code: EPROTO) }
}

func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction))]
}

func nanoseconds() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

func measure(_ peer: Peer) throws -> Figures {
    var figures = Figures()
    var socket: BenchmarkSocket?
    for _ in 0..<200 { try keepAliveGet(&socket, port: peer.port) }  // Warm-up.
    var samples: [Double] = []
    samples.reserveCapacity(latencySamples)
    for _ in 0..<latencySamples {
        let start = nanoseconds()
        try keepAliveGet(&socket, port: peer.port)
        samples.append(Double(nanoseconds() - start) / 1000)
    }
    samples.sort()
    figures.keepAliveMedian = percentile(samples, 0.5)
    figures.keepAliveP99 = percentile(samples, 0.99)
    socket = nil

    samples.removeAll(keepingCapacity: true)
    for _ in 0..<(latencySamples / 2) {
        let start = nanoseconds()
        try newConnectionGet(port: peer.port)
        samples.append(Double(nanoseconds() - start) / 1000)
    }
    samples.sort()
    figures.newConnectionMedian = percentile(samples, 0.5)
    figures.newConnectionP99 = percentile(samples, 0.99)

    figures.oneClientRate = try throughput(peer, clients: 1)
    figures.sixteenClientRate = try throughput(peer, clients: 16)
    return figures
}

/// Requests per second with `clients` threads, each on its own kept-alive connection.
func throughput(_ peer: Peer, clients: Int) throws -> Double {
    let group = DispatchGroup()
    let counts = UnsafeMutableBufferPointer<Int>.allocate(capacity: clients)
    counts.initialize(repeating: 0)
    defer { counts.deallocate() }
    let failures = FailureBox()
    let deadline = nanoseconds() + UInt64(throughputDuration * 1e9)
    let start = nanoseconds()
    nonisolated(unsafe) let sharedCounts = counts
    let port = peer.port
    for index in 0..<clients {
        group.enter()
        Thread.detachNewThread {
            defer { group.leave() }
            var socket: BenchmarkSocket?
            do {
                while nanoseconds() < deadline {
                    try keepAliveGet(&socket, port: port)
                    sharedCounts[index] += 1
                }
            } catch {
                failures.record("\(error)")
            }
        }
    }
    group.wait()
    let elapsed = Double(nanoseconds() - start) / 1e9
    if let failure = failures.first { throw SocketError(operation: "\(peer.name) with \(clients) clients: \(failure)", code: EIO) }
    return Double(counts.reduce(0, +)) / elapsed
}

final class FailureBox: Sendable {
    private let failures = Locked<[String]>([])
    func record(_ failure: String) { failures.withLock { $0.append(failure) } }
    var first: String? { failures.withLock { $0.first } }
}

// MARK: - Run and report

var results: [(String, Figures)] = []
for peer in peers {
    FileHandle.standardError.write(Data("measuring \(peer.name)…\n".utf8))
    do {
        results.append((peer.name, try measure(peer)))
    } catch {
        FileHandle.standardError.write(Data("\(peer.name) failed: \(error)\n".utf8))
    }
}
for peer in peers { peer.stop() }

func cell(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
}

let rows: [(String, KeyPath<Figures, Double>, Bool)] = [
    ("keep-alive median latency (µs)", \.keepAliveMedian, true),
    ("keep-alive p99 latency (µs)", \.keepAliveP99, true),
    ("new connection median latency (µs)", \.newConnectionMedian, true),
    ("new connection p99 latency (µs)", \.newConnectionP99, true),
    ("requests/s, 1 client", \.oneClientRate, false),
    ("requests/s, 16 clients", \.sixteenClientRate, false),
]
print("GET /todos (\(document.count) bytes, 200 todos), \(latencySamples) latency samples, \(throughputDuration) s per throughput run, \(ProcessInfo.processInfo.activeProcessorCount) cores")
var header = "scenario".padding(toLength: 36, withPad: " ", startingAt: 0)
for (name, _) in results { header += cell(name, 19) }
let ours = results.first { $0.0 == "StubServer" }?.1
let others = results.filter { $0.0 == "http.server" || $0.0 == "pytest-httpserver" }
for (name, _) in others { header += cell("x vs \(name)", 24) }
print(header)
for (title, keyPath, lowerIsBetter) in rows {
    var line = title.padding(toLength: 36, withPad: " ", startingAt: 0)
    for (_, figures) in results { line += cell(String(format: "%.0f", figures[keyPath: keyPath]), 19) }
    if let ours {
        for (_, figures) in others {
            let ratio = lowerIsBetter ? figures[keyPath: keyPath] / ours[keyPath: keyPath] : ours[keyPath: keyPath] / figures[keyPath: keyPath]
            line += cell(String(format: "%.1fx better", ratio), 24)
        }
    }
    print(line)
}
print("(ratios: how many times StubServer is better; above 1 means faster or more requests per second)")
