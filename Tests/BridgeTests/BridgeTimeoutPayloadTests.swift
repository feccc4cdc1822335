import Foundation
import HarnessSystem
import HarnessWire
import Testing
import TestSupport
import Harness
@testable import HarnessCore

/// The bridge's timeouts carry the package's one payload (`WaitTimeout`): a test catching
/// `any WaitTimeoutCarrying` reads what was awaited, for how long, and what was seen last.
@Suite struct BridgeTimeoutPayloadTests {
    /// The payload of the error `body` throws, caught as `any WaitTimeoutCarrying`.
    static func payload(_ body: () async throws -> Void) async -> WaitTimeout? {
        do {
            try await examiningFailures { try await body() }
            Issue.record("no error thrown")
        } catch let error as any WaitTimeoutCarrying {
            #expect(error is BridgeError)
            return error.waitTimeout
        } catch {
            Issue.record("\(error) does not carry a wait timeout")
        }
        return nil
    }

    @Test func neverConnectedCarriesTheDiagnostics() async throws {
        let listener = try BridgeListener(diagnostics: { "exit status: still running" })
        defer { listener.close() }
        let timeout = try #require(await Self.payload { _ = try await listener.waitForReady(timeout: .milliseconds(50)) })
        #expect(timeout.awaited == "the app to connect to the bridge")
        #expect(timeout.timeout == .milliseconds(50))
        #expect(timeout.lastSeen == "exit status: still running")
    }

    @Test func anUnansweredCallCarriesItsName() async throws {
        let listener = try BridgeListener(diagnostics: { "screen: Ready" })
        defer { listener.close() }
        // A raw app that says hello and ready, then never answers.
        let fd = try UnixSocket.connect(path: listener.socketPath)
        defer { UnixSocket.close(fd) }
        let hello = try BridgeFrame.encode(.hello(
            version: BridgeProtocol.version, token: listener.launchOptions.bridgeToken!, pid: 1, app: "silent"))
        try UnixSocket.sendAll(fd, hello + (try BridgeFrame.encode(.ready)), timeoutMilliseconds: 30_000)
        let app = try await listener.readyBridge()
        let timeout = try #require(await Self.payload { try await app.call("state", timeout: .milliseconds(50)) })
        #expect(timeout.awaited == "the reply to bridge call 'state'")
        #expect(timeout.timeout == .milliseconds(50))
        #expect(timeout.lastSeen == "screen: Ready")
        #expect(timeout.description.contains("waiting for the reply to bridge call 'state'"))
    }

    @Test func anEventWaitCarriesWhatArrived() async throws {
        let connected = try await BridgeInProcessTests.connect()
        defer { connected.listener.close(); connected.host.close() }
        connected.host.publish("state", "loaded")
        // Arrived (the any-name cursor), so the timed-out wait below has seen it.
        _ = try await connected.app.nextEvent(timeout: mustSucceedTimeout)
        let timeout = try #require(await Self.payload {
            _ = try await connected.app.nextEvents(2, named: "state", timeout: .milliseconds(50))
        })
        #expect(timeout.awaited == "the wait for 2 event(s) named 'state'")
        #expect(timeout.lastSeen?.contains(#"#0 state "loaded""#) == true, "\(timeout)")
    }

    static let notTimeouts: [BridgeError] = [
        .closed, .setupFailed("no"), .appExited(status: "exited with code 1", during: nil, diagnostics: "screen"),
        .connectionLost(reason: "gone", during: "call 'x'", diagnostics: nil), .unknownName("x", available: []),
        .authenticationFailed(reason: "wrong token", diagnostics: nil), .versionMismatch(app: 1, harness: 2),
    ]

    @Test(arguments: notTimeouts)
    func otherErrorsCarryNoTimeout(error: BridgeError) {
        #expect((error as any WaitTimeoutCarrying).waitTimeout == nil)
    }

    @Test func lastSeenIsShort() throws {
        let error = BridgeError.waitTimedOut(
            what: "the wait for 1 event(s)", timeout: .seconds(1), received: String(repeating: "x", count: 5000),
            diagnostics: nil)
        let lastSeen = try #require(error.waitTimeout?.lastSeen)
        #expect(lastSeen.count == BridgeError.lastSeenLimit + 1)
        #expect(lastSeen.hasSuffix("…"))
    }
}
