import Foundation
import HarnessCore
import HarnessHost
import HarnessWire

/// A todo shaped like jsonplaceholder's.
struct Todo: Codable, Sendable, Equatable {
    var userId: Int
    var id: Int
    var title: String
    var completed: Bool
}

struct Small: Codable, Sendable {
    var name: String
    var count: Int
}

/// Median and p99 round trip of bridge calls next to a raw Unix-socket exchange of the same frames.
///
/// Run: `swift build -c release --product BridgeBenchmark && .build/release/BridgeBenchmark [iterations]`
@main
struct BridgeBenchmark {
    static func main() async throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let iterations = arguments.first.flatMap(Int.init) ?? 2000
        // `--only TEXT` runs just the cases whose name contains TEXT (for profiling one case).
        let only = arguments.firstIndex(of: "--only").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
        let todos = (1...200).map {
            Todo(userId: ($0 - 1) / 20 + 1, id: $0, title: "delectus aut autem number \($0)", completed: $0 % 3 == 0)
        }
        let small = Small(name: "state", count: 1)

        let listener = try BridgeListener()
        let (launchArguments, environment) = (listener.arguments, listener.environment)
        let launch = try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result {
                    try HarnessHost.start(arguments: ["bench"] + launchArguments, environment: environment, appName: "bench")
                })
            }.start()
        }
        guard let host = launch.host else { fatalError("no host: \(String(describing: launch.bridgeError))") }
        host.handle("small", as: Small.self) { $0 }
        host.handle("todos", as: Small.self) { _ in todos }
        host.handle("echo", as: [Todo].self) { $0 }
        host.ready()
        let app = try await listener.waitForReady(timeout: .seconds(10))

        let rawTodos = try RawJSON(encoding: todos)
        let rawSmall = try RawJSON(encoding: small)
        // The exact frames each bridge case moves, for the raw baseline.
        func frames(_ params: RawJSON, _ result: RawJSON) throws -> (request: [UInt8], response: [UInt8]) {
            (try BridgeFrame.encode(.call(id: 1000, name: "x", params: params)),
             try BridgeFrame.encode(.reply(id: 1000, result: .success(result))))
        }
        let smallFrames = try frames(rawSmall, rawSmall)
        let todosFrames = try frames(rawSmall, rawTodos)
        let echoFrames = try frames(rawTodos, rawTodos)
        var responses: [Int: [UInt8]] = [:]
        for pair in [smallFrames, todosFrames, echoFrames] { responses[pair.request.count] = pair.response }
        // The small-params cases share a request size; give them distinct sizes by padding the name.
        let todosRequest = try BridgeFrame.encode(.call(id: 1000, name: "xy", params: rawSmall))
        responses[todosRequest.count] = todosFrames.response
        let raw = try RawEcho(responses: responses)

        print("Bridge round trip vs raw Unix-socket exchange of the same frames (\(iterations) iterations each)")
        print("payload: small = \(smallFrames.request.count)/\(smallFrames.response.count) bytes; "
              + "200 todos = \(todosFrames.response.count) bytes per reply")
        // The raw echo alone, before any bridge traffic: its best case on this machine.
        for (label, request) in [("small", smallFrames.request), ("200 todos both ways", echoFrames.request)] {
            _ = await raw.measure(request, count: 200)
            let (median, p99) = stats(await raw.measure(request, count: iterations))
            print("raw echo alone, \(label): median \(format(median)) µs, p99 \(format(p99)) µs")
        }
        print("In the table the raw echo runs in blocks alternating with the bridge's, on its own threads.")
        print("")
        print(pad("case", 46) + pad("median µs", 11) + pad("p99 µs", 10) + pad("raw med", 9) + pad("raw p99", 9) + "ratio med/p99")

        func report(_ name: String, rawRequest: [UInt8], _ body: @Sendable () async throws -> Void) async throws {
            guard only.map({ name.contains($0) }) ?? true else { return }
            try await Self.report(name, iterations: iterations, raw: raw, rawRequest: rawRequest, body)
        }
        try await report("small typed call (Codable both sides)", rawRequest: smallFrames.request) {
            _ = try await app.call("small", small, as: Small.self)
        }
        try await report("small raw call (__echo, no Codable)", rawRequest: smallFrames.request) {
            _ = try await app.callRaw("__echo", params: rawSmall)
        }
        try await report("200 todos typed reply (decode [Todo])", rawRequest: todosRequest) {
            _ = try await app.call("todos", small, as: [Todo].self)
        }
        try await report("200 todos raw echo both ways (__echo)", rawRequest: echoFrames.request) {
            _ = try await app.callRaw("__echo", params: rawTodos)
        }
        try await report("200 todos typed echo both ways", rawRequest: echoFrames.request) {
            _ = try await app.call("echo", todos, as: [Todo].self)
        }
        if only == nil { codecCost(todosFrames.response, iterations: iterations) }
        raw.close()
        host.close()
        listener.close()
    }

    /// Measures `body` and the raw echo of `rawRequest` in alternating blocks, so both see the
    /// same machine state; the raw echo always runs on its own client thread.
    static func report(
        _ name: String, iterations: Int, raw: RawEcho, rawRequest: [UInt8], _ body: @Sendable () async throws -> Void
    ) async throws {
        let clock = ContinuousClock()
        let rounds = 10
        let block = max(1, iterations / rounds)
        for _ in 0..<min(200, iterations) { try await body() }
        _ = await raw.measure(rawRequest, count: min(200, iterations))
        var bridge: [Double] = []
        var baseline: [Double] = []
        bridge.reserveCapacity(block * rounds)
        baseline.reserveCapacity(block * rounds)
        for _ in 0..<rounds {
            for _ in 0..<block {
                let start = clock.now
                try await body()
                bridge.append(microseconds(clock.now - start))
            }
            baseline += await raw.measure(rawRequest, count: block)
        }
        let (median, p99) = stats(bridge)
        let (rawMedian, rawP99) = stats(baseline)
        print(pad(name, 46) + pad(format(median), 11) + pad(format(p99), 10) + pad(format(rawMedian), 9)
              + pad(format(rawP99), 9) + format(median / rawMedian) + "x / " + format(p99 / rawP99) + "x")
    }

    /// The cost of the envelope alone: decoding one 200-todo reply frame, no socket.
    static func codecCost(_ frame: [UInt8], iterations: Int) {
        let clock = ContinuousClock()
        var samples: [Double] = []
        for _ in 0..<iterations {
            let start = clock.now
            var decoder = FrameDecoder()
            decoder.append(frame)
            _ = try? decoder.nextMessage()
            samples.append(microseconds(clock.now - start))
        }
        let (median, p99) = stats(samples)
        print("")
        print("envelope decode of one 200-todo reply frame (no socket): median \(format(median)) µs, p99 \(format(p99)) µs")
    }

    static func microseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
    }

    static func stats(_ values: [Double]) -> (median: Double, p99: Double) {
        let sorted = values.sorted()
        return (sorted[sorted.count / 2], sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))])
    }

    static func format(_ value: Double) -> String { String(format: "%.1f", value) }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
