import Foundation
import HarnessWire
import HarnessSystem
import Testing
import TestSupport
import Harness
@testable import HarnessCore

/// The Python host (Harness/hosts/python/harness_host.py) against a hand-written harness side:
/// what it sends, what it refuses, and that it stays inert without the launch protocol.
private let hasPython = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
    || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/python3")

@Suite(.enabled(if: hasPython, "needs python3"))
struct PythonHostProtocolTests {
    static let hostDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Harness/hosts/python").standardized.path

    /// A Python app: starts the host, reports what it got, serves one probe until the bridge ends.
    /// It waits for the test's welcome as long as the test takes (`handshake_timeout=None`): the
    /// test's side runs on a loaded cooperative pool, and the app must wait for the test, not
    /// for time. The test's own waits and `terminate()` bound it.
    static let script = """
        import sys, threading
        sys.path.insert(0, sys.argv.pop(1))
        import harness_host
        launch = harness_host.start(app_name="pytest-app", handshake_timeout=None)
        print("options:", launch.options is not None, "host:", launch.host is not None, flush=True)
        print("arguments:", launch.arguments[1:], "threads:", threading.active_count(), flush=True)
        print("error:", launch.bridge_error, flush=True)
        if launch.host:
            launch.host.probe("answer", lambda: 42)
            launch.host.handle("double", lambda n: n * 2)
            launch.host.ready()
            launch.host.wait_closed()
            print("the bridge ended; the app carries on", flush=True)
        """

    static func python(_ arguments: [String], environment: [String: String]) throws -> PipedSession {
        var configuration = PipedSession.Configuration(
            executable: "python3", arguments: ["-c", script, hostDirectory] + arguments)
        configuration.environment = ["PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"].merging(environment) { $1 }
        return try PipedSession.launch(configuration)
    }

    /// A socket path and a listener accepting the host's one connection. `accepted` throws
    /// when the host has not connected within `mustSucceedTimeout`, so a host that never
    /// connects fails the test instead of hanging it.
    static func listen() throws -> (path: String, accepted: () async throws -> Int32) {
        let path = NSTemporaryDirectory() + "pyhost-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        let listener = try UnixListener(path: path)
        return (path, {
            let timer = Locked<EventLoop.Timer?>(nil)
            defer {
                listener.close()
                if let timer = timer.withLock({ $0 }) { EventLoop.shared.cancel(timer) }
            }
            return try await withCheckedThrowingContinuation { continuation in
                let once = ResumeOnce(continuation)
                listener.acceptOne { result in
                    // Too late (the wait timed out): nobody will close the connection but us.
                    if !once.resume(with: result.mapError { $0 as any Error }), case .success(let fd) = result { UnixSocket.close(fd) }
                }
                let deadline = EventLoop.shared.schedule(after: mustSucceedTimeout) {
                    once.resume(with: .failure(HostNeverConnected(description:
                        "the Python host did not connect to \(path) within \(mustSucceedTimeout)")))
                }
                timer.withLock { $0 = deadline }
            }
        })
    }

    struct HostNeverConnected: Error, CustomStringConvertible {
        let description: String
    }

    /// Resumes a continuation with the first result given to it and drops the later ones.
    final class ResumeOnce: Sendable {
        private let continuation: Locked<CheckedContinuation<Int32, any Error>?>

        init(_ continuation: CheckedContinuation<Int32, any Error>) {
            self.continuation = Locked(continuation)
        }

        /// Whether this call resumed it.
        @discardableResult
        func resume(with result: Result<Int32, any Error>) -> Bool {
            guard let continuation = continuation.withLock({ slot in defer { slot = nil }; return slot }) else { return false }
            continuation.resume(with: result)
            return true
        }
    }

    static func receive(_ fd: Int32, _ decoder: inout FrameDecoder) throws -> BridgeMessage {
        try UnixSocket.receiveMessage(fd, decoder: &decoder, timeoutMilliseconds: 30_000)
    }

    static func send(_ fd: Int32, _ bytes: [UInt8]) throws {
        try UnixSocket.sendAll(fd, bytes, timeoutMilliseconds: 30_000)
    }

    @Test(arguments: LaunchCarrier.allCases)
    func aWrongTokenIsRefusedAndTheAppCarriesOn(carrier: LaunchCarrier) async throws {
        let (path, accepted) = try Self.listen()
        let environment = carrier == .environment
            ? ["HARNESS_BRIDGE": path, "HARNESS_BRIDGE_TOKEN": "wrong"] : ["HARNESS_BRIDGE_TOKEN": "wrong"]
        let app = try Self.python(carrier == .arguments ? ["--harness-bridge", path, "mine"] : ["mine"], environment: environment)
        defer { app.terminate() }
        let fd = try await accepted()
        defer { UnixSocket.close(fd) }
        let hello = try await offPool {
            var decoder = FrameDecoder()
            let hello = try Self.receive(fd, &decoder)
            try Self.send(fd, try BridgeFrame.encode(.refused(code: "badToken", reason: "the hello carried a wrong token")))
            return hello
        }
        guard case .hello(let version, let token, _, let name) = hello else { Issue.record("got \(hello)"); return }
        #expect(version == 2 && token == "wrong" && name == "pytest-app")
        let output = try await app.waitForExit(timeout: mustSucceedTimeout)
        #expect(output.shellStatus == 0, "\(output.standardError)")
        #expect(output.standardOutput.contains("host: False"))
        #expect(output.standardOutput.contains("arguments: ['mine']"))
        #expect(output.standardOutput.contains("the harness refused the bridge (badToken)"), "\(output.standardOutput)")
    }

    /// Calls get replies (malformed params: `badParams`), then a malformed frame drops the bridge.
    @Test func repliesThenDropsTheBridgeOnAMalformedFrame() async throws {
        let (path, accepted) = try Self.listen()
        let app = try Self.python([], environment: ["HARNESS_BRIDGE": path, "HARNESS_BRIDGE_TOKEN": "t"])
        defer { app.terminate() }
        let fd = try await accepted()
        defer { UnixSocket.close(fd) }
        let (replies, closed) = try await offPool { () -> ([BridgeMessage], Bool) in
            var decoder = FrameDecoder()
            _ = try Self.receive(fd, &decoder)  // hello
            try Self.send(fd, try BridgeFrame.encode(.welcome(version: 2)))
            var messages: [BridgeMessage] = []
            let ready = try Self.receive(fd, &decoder)
            messages.append(ready)
            for (id, name, params) in [(1, "answer", "null"), (2, "double", "21"), (3, "double", "{bad"), (4, "nope", "1")] {
                let payload = #"{"type":"call","id":\#(id),"name":"\#(name)","params":\#(params)}"#
                try Self.send(fd, Self.frame(payload))
                messages.append(try Self.receive(fd, &decoder))
            }
            try Self.send(fd, Self.frame("not json"))
            do {
                _ = try Self.receive(fd, &decoder)
                return (messages, false)
            } catch UnixSocket.TransportError.closedByPeer {
                return (messages, true)
            }
        }
        #expect(replies.first == .ready)
        #expect(replies.dropFirst().map(Self.summary) == [
            "1 result 42", "2 result 42", "3 error badParams", "4 error unknownName [answer, double]",
        ])
        #expect(closed, "the host must drop the connection after a malformed frame")
        let output = try await app.waitForExit(timeout: mustSucceedTimeout)
        #expect(output.shellStatus == 0, "\(output.standardError)")
        #expect(output.standardOutput.contains("the bridge ended; the app carries on"))
    }

    static func frame(_ payload: String) -> [UInt8] {
        let bytes = Array(payload.utf8)
        let count = UInt32(bytes.count)
        return [UInt8(count >> 24), UInt8((count >> 16) & 0xFF), UInt8((count >> 8) & 0xFF), UInt8(count & 0xFF)] + bytes
    }

    static func summary(_ message: BridgeMessage) -> String {
        guard case .reply(let id, let result) = message else { return "\(message)" }
        switch result {
        case .success(let value): return "\(id) result \(value.text)"
        case .failure(let error): return "\(id) error \(error.code)" + (error.available.map { " [\($0.joined(separator: ", "))]" } ?? "")
        }
    }

    @Test(arguments: [[String: String](), ["HARNESS_BRIDGE_TOKEN": "t", "HARNESS_RECORD": "all"]])
    func withoutTheLaunchProtocolItIsInert(environment: [String: String]) async throws {
        let app = try Self.python(["--verbose", "--", "--harness-bridge"], environment: environment)
        defer { app.terminate() }
        let output = try await app.waitForExit(timeout: mustSucceedTimeout)
        #expect(output.shellStatus == 0, "\(output.standardError)")
        #expect(output.standardOutput.contains("options: False host: False"))
        #expect(output.standardOutput.contains("arguments: ['--verbose', '--', '--harness-bridge'] threads: 1"))
    }

    @Test(arguments: [
        (["--harness-storage"], [String: String](), "needs a value"),
        (["--harness-storage", "/a"], ["HARNESS_NETWORK": "http://127.0.0.1:1"], "a launch uses one carrier"),
        ([], ["HARNESS_CLOCK": "2024-05-01 09:30:00Z"], "is not a date-time"),
        ([], ["HARNESS_SET": #"{"k":"1","k":"2"}"#], "given more than once"),
    ])
    func malformedOptionsExit64(arguments: [String], environment: [String: String], reason: String) async throws {
        var configuration = PipedSession.Configuration(
            executable: "python3",
            arguments: ["-c", "import sys; sys.path.insert(0, sys.argv.pop(1)); import harness_host; harness_host.start_or_exit()",
                        Self.hostDirectory] + arguments)
        configuration.environment = ["PATH": "/usr/local/bin:/usr/bin:/bin"].merging(environment) { $1 }
        let app = try PipedSession.launch(configuration)
        defer { app.terminate() }
        let output = try await app.waitForExit(timeout: mustSucceedTimeout)
        #expect(output.shellStatus == 64)
        #expect(output.standardError.contains(reason), "\(output.standardError)")
    }
}
