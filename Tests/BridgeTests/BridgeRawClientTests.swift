import Foundation
import HarnessWire
import Testing
import TestSupport
import Harness
@testable import HarnessCore

/// A hand-written client speaking raw frames: refusals and bad frames.
@Suite struct BridgeRawClientTests {
    static func connect(_ listener: BridgeListener) throws -> Int32 {
        try UnixSocket.connect(path: listener.socketPath)
    }

    static func hello(_ listener: BridgeListener, version: Int = BridgeProtocol.version) throws -> [UInt8] {
        try BridgeFrame.encode(.hello(version: version, token: listener.launchOptions.bridgeToken!, pid: 1, app: "raw"))
    }

    @Test func versionMismatchIsRefused() async throws {
        let listener = try BridgeListener()
        defer { listener.close() }
        let fd = try Self.connect(listener)
        defer { UnixSocket.close(fd) }
        let hello = try Self.hello(listener, version: 99)
        let answer = try await offPool {
            try UnixSocket.sendAll(fd, hello, timeoutMilliseconds: 30_000)
            var decoder = FrameDecoder()
            return try UnixSocket.receiveMessage(fd, decoder: &decoder, timeoutMilliseconds: 30_000)
        }
        guard case .refused(let code, _) = answer else { Issue.record("got \(answer)"); return }
        #expect(code == "versionMismatch")
        await #expect {
            _ = try await listener.readyBridge()
        } throws: { error in
            guard case BridgeError.versionMismatch(let app, let harness) = error else { return false }
            return app == 99 && harness == BridgeProtocol.version
        }
    }

    /// The real token with bytes after it is a wrong token: two NULs, and 256 of them (a
    /// length whose difference from the token's vanishes in a byte), and a character more.
    @Test(arguments: [String(repeating: "\0", count: 2), String(repeating: "\0", count: 256), "0"])
    func tokenWithTrailingBytesIsRefused(suffix: String) async throws {
        let listener = try BridgeListener()
        defer { listener.close() }
        let fd = try Self.connect(listener)
        defer { UnixSocket.close(fd) }
        let hello = try BridgeFrame.encode(.hello(
            version: BridgeProtocol.version, token: listener.launchOptions.bridgeToken! + suffix, pid: 1, app: "raw"))
        let answer = try await offPool {
            try UnixSocket.sendAll(fd, hello, timeoutMilliseconds: 30_000)
            var decoder = FrameDecoder()
            return try UnixSocket.receiveMessage(fd, decoder: &decoder, timeoutMilliseconds: 30_000)
        }
        guard case .refused(let code, _) = answer else { Issue.record("got \(answer)"); return }
        #expect(code == "badToken")
        await #expect {
            _ = try await listener.readyBridge()
        } throws: { error in
            if case BridgeError.authenticationFailed(let reason, _) = error { return reason.contains("wrong token") }
            return false
        }
    }

    @Test func firstMessageMustBeHello() async throws {
        let listener = try BridgeListener()
        defer { listener.close() }
        let fd = try Self.connect(listener)
        defer { UnixSocket.close(fd) }
        try UnixSocket.sendAll(fd, try BridgeFrame.encode(.ready), timeoutMilliseconds: 30_000)
        await #expect {
            _ = try await listener.readyBridge()
        } throws: { error in
            if case BridgeError.authenticationFailed = error { return true }
            return false
        }
    }

    static let badFrames: [(String, [UInt8])] = [
        ("oversized", [0x7F, 0xFF, 0xFF, 0xFF]),
        ("non-JSON", [0, 0, 0, 5] + Array("hello".utf8)),
        ("unknown type", [0, 0, 0, 17] + Array(#"{"type":"nuke"}  "#.utf8)),
        ("empty", [0, 0, 0, 0]),
    ]

    @Test(arguments: badFrames)
    func badFrameAfterHelloDropsTheConnection(name: String, frame: [UInt8]) async throws {
        let listener = try BridgeListener(maxFrameSize: 1 << 20)
        defer { listener.close() }
        let fd = try Self.connect(listener)
        defer { UnixSocket.close(fd) }
        try UnixSocket.sendAll(fd, try Self.hello(listener) + (try BridgeFrame.encode(.ready)), timeoutMilliseconds: 30_000)
        let app = try await listener.readyBridge()
        let pendingCall = Task { try await app.call("anything", timeout: .seconds(60)) }
        try await offPool {
            var decoder = FrameDecoder()
            _ = try UnixSocket.receiveMessage(fd, decoder: &decoder, timeoutMilliseconds: 30_000)  // welcome
            // The call is sent by a Task, which starts when the suite's cooperative pool has a
            // thread free: the fake app waits for it as long as the test may, not for a time.
            _ = try UnixSocket.receiveMessage(fd, decoder: &decoder, timeoutMilliseconds: 600_000)  // the call
            try UnixSocket.sendAll(fd, frame, timeoutMilliseconds: 30_000)
        }
        await #expect {
            try await pendingCall.value
        } throws: { error in
            guard case BridgeError.protocolError(let wire, _) = error else { return false }
            return !wire.description.isEmpty
        }
        // The harness dropped the connection: reading gives end of stream.
        let ending = try await offPool { () -> String in
            var decoder = FrameDecoder()
            do {
                let message = try UnixSocket.receiveMessage(fd, decoder: &decoder, timeoutMilliseconds: 30_000)
                return "received \(message)"
            } catch { return "\(error)" }
        }
        #expect(ending == "the other side closed the connection")
    }
}
