import Foundation
import HarnessWire
import Testing
@testable import HarnessHost

@Suite struct HarnessHostStartTests {
    @Test func withoutHarnessArgumentsTheHostIsInert() throws {
        let argv = ["todo", "--list", "-v"]
        let launch = try HarnessHost.start(arguments: argv, environment: ["HARNESS_BRIDGE_TOKEN": "abc"])
        #expect(launch.host == nil)
        #expect(launch.options == nil)
        #expect(launch.bridgeError == nil)
        #expect(launch.remainingArguments == argv)
    }

    @Test func optionsWithoutABridgeGiveNoHost() throws {
        let launch = try HarnessHost.start(
            arguments: ["todo", "--harness-network", "http://127.0.0.1:9/", "--harness-storage", "/tmp/x", "add"],
            environment: [:])
        #expect(launch.host == nil)
        #expect(launch.bridgeError == nil)
        #expect(launch.options?.networkBaseURL?.absoluteString == "http://127.0.0.1:9/")
        #expect(launch.options?.storageDirectory == "/tmp/x")
        #expect(launch.remainingArguments == ["todo", "add"])
    }

    @Test func malformedArgumentsThrow() {
        #expect(throws: LaunchOptionsError.missingValue(flag: "--harness-bridge")) {
            try HarnessHost.start(arguments: ["todo", "--harness-bridge"], environment: [:])
        }
    }

    @Test func missingSocketIsReportedAndTheAppCarriesOn() throws {
        let launch = try HarnessHost.start(
            arguments: ["todo", "--harness-bridge", "/nonexistent-\(UUID().uuidString)/bridge.sock"], environment: [:])
        #expect(launch.host == nil)
        guard case .connectFailed(_, let error) = launch.bridgeError else {
            Issue.record("expected connectFailed, got \(String(describing: launch.bridgeError))")
            return
        }
        #expect(error.errno == ENOENT)
    }

    /// A listening socket that never answers: the handshake times out instead of hanging.
    @Test func silentHarnessTimesOutTheHandshake() throws {
        let path = "/tmp/harness-host-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        let fd = try UnixSocket.listen(path: path)
        defer { UnixSocket.close(fd); UnixSocket.removeFile(path) }
        let launch = try HarnessHost.start(
            arguments: ["todo", "--harness-bridge", path], environment: ["HARNESS_BRIDGE_TOKEN": "t"],
            handshakeTimeout: .milliseconds(50))
        #expect(launch.host == nil)
        guard case .handshakeFailed(let reason) = launch.bridgeError else {
            Issue.record("expected handshakeFailed, got \(String(describing: launch.bridgeError))")
            return
        }
        #expect(reason.contains("no answer"))
    }
}
