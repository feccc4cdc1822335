import Foundation
import HarnessSystem
import HarnessWire
import Testing
import TestSupport

/// `FrameConnection` on the event loop against a raw socket peer: queued frames, flushing
/// closes, a bounded queue, malformed bytes, the peer going away, and one close report.
@Suite struct FrameConnectionTests {
    /// What a connection reported, and whether each report came on the event loop.
    final class Recorder: Sendable {
        let messages = Locked<[BridgeMessage]>([])
        let closes = Locked<[FrameConnection.CloseReason]>([])
        let offLoopCalls = Locked(0)

        func connection(fd: Int32, maxQueuedBytes: Int = 64 * 1024 * 1024) -> FrameConnection {
            FrameConnection(
                fd: fd, maxQueuedBytes: maxQueuedBytes,
                onMessage: { [self] message in
                    if !EventLoop.shared.inLoop { offLoopCalls.withLock { $0 += 1 } }
                    messages.withLockNotifying { $0.append(message) }
                },
                onClose: { [self] reason in
                    if !EventLoop.shared.inLoop { offLoopCalls.withLock { $0 += 1 } }
                    closes.withLockNotifying { $0.append(reason) }
                })
        }

        /// The close reasons once the first arrived, after the loop ran every job queued by
        /// then (a second report would have been queued before them).
        func closeReasons() async throws -> [FrameConnection.CloseReason] {
            let closes = closes
            let arrived = try await offPool {
                closes.wait(until: { !$0.isEmpty }, deadline: MonotonicClock.deadline(after: mustSucceedTimeout))
            }
            #expect(arrived, "no close reported within \(mustSucceedTimeout)")
            await EventLoop.shared.submit {}
            await EventLoop.shared.submit {}
            return closes.withLock { $0 }
        }

        func waitForMessages(_ count: Int) async throws -> [BridgeMessage] {
            let messages = messages
            let arrived = try await offPool {
                messages.wait(until: { $0.count >= count }, deadline: MonotonicClock.deadline(after: mustSucceedTimeout))
            }
            #expect(arrived, "\(count) messages did not arrive within \(mustSucceedTimeout)")
            return messages.withLock { $0 }
        }
    }

    /// The two ends of a connected Unix socket: one for the connection, one raw for the test.
    static func socketPair() throws -> (connection: Int32, peer: Int32) {
        let path = "/tmp/frame-connection-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        let listening = try UnixSocket.listen(path: path)
        defer { UnixSocket.close(listening); UnixSocket.removeFile(path) }
        let peer = try UnixSocket.connect(path: path)
        guard let accepted = try UnixSocket.accept(listening) else {
            UnixSocket.close(peer)
            throw SystemError(operation: "accept", errno: EAGAIN)
        }
        return (accepted, peer)
    }

    /// Reads frames from `fd` until the other side closes; the messages read.
    static func readUntilClosed(_ fd: Int32) async throws -> (messages: [BridgeMessage], ending: String) {
        try await offPool {
            var decoder = FrameDecoder()
            var messages: [BridgeMessage] = []
            while true {
                do {
                    messages.append(try UnixSocket.receiveMessage(fd, decoder: &decoder, timeoutMilliseconds: 60_000))
                } catch {
                    return (messages, "\(error)")
                }
            }
        }
    }

    static func bigEvent(_ seq: UInt64) throws -> [UInt8] {
        try BridgeFrame.encode(.event(seq: seq, name: "big", value: RawJSON(encoding: String(repeating: "x", count: 64 * 1024))))
    }

    @Test func queuedFramesAreWrittenBeforeAFlushingClose() async throws {
        let (fd, peer) = try Self.socketPair()
        defer { UnixSocket.close(peer) }
        let recorder = Recorder()
        let connection = recorder.connection(fd: fd)
        connection.start()
        // 4 MiB: more than a socket buffer holds, so most frames wait in the queue.
        let outcomes = try (0..<64).map { try connection.send(Self.bigEvent($0)) }
        #expect(outcomes.contains(.queued))
        #expect(!outcomes.contains(.dropped) && !outcomes.contains(.closed))
        connection.close(reason: "done", flush: true)
        #expect(!connection.isOpen)
        #expect(connection.send(try Self.bigEvent(64)) == .closed)
        let (messages, ending) = try await Self.readUntilClosed(peer)
        #expect(messages.count == 64)
        #expect(messages.map { if case .event(let seq, _, _) = $0 { seq } else { UInt64.max } } == Array(UInt64(0)..<64))
        #expect(ending == "the other side closed the connection")
        #expect(try await recorder.closeReasons() == [.local("done")])
        #expect(recorder.offLoopCalls.withLock { $0 } == 0)
    }

    @Test func aFullQueueDropsFramesAndCountsThem() async throws {
        let (fd, peer) = try Self.socketPair()
        defer { UnixSocket.close(peer) }
        let recorder = Recorder()
        let connection = recorder.connection(fd: fd, maxQueuedBytes: 200 * 1024)
        connection.start()
        // The peer reads nothing: the socket buffer fills, then the queue, then frames drop.
        let outcomes = try (0..<100).map { try connection.send(Self.bigEvent($0)) }
        #expect(outcomes.contains(.dropped))
        #expect(connection.droppedFrameCount == outcomes.filter { $0 == .dropped }.count)
        connection.close(reason: "enough")
        #expect(try await recorder.closeReasons() == [.local("enough")])
    }

    @Test func messagesArriveInOrderOnTheLoop() async throws {
        let (fd, peer) = try Self.socketPair()
        defer { UnixSocket.close(peer) }
        let recorder = Recorder()
        let connection = recorder.connection(fd: fd)
        connection.start()
        defer { connection.close(reason: "test over") }
        var bytes: [UInt8] = []
        for seq in 0..<1000 { bytes += try BridgeFrame.encode(.event(seq: UInt64(seq), name: "tick", value: .null)) }
        try UnixSocket.sendAll(peer, bytes, timeoutMilliseconds: 60_000)
        let messages = try await recorder.waitForMessages(1000)
        #expect(messages.map { if case .event(let seq, _, _) = $0 { seq } else { UInt64.max } } == Array(UInt64(0)..<1000))
        #expect(recorder.offLoopCalls.withLock { $0 } == 0)
    }

    @Test func malformedBytesEndTheConnectionWithAProtocolError() async throws {
        let (fd, peer) = try Self.socketPair()
        defer { UnixSocket.close(peer) }
        let recorder = Recorder()
        recorder.connection(fd: fd).start()
        try UnixSocket.sendAll(peer, [0, 0, 0, 5] + Array("hello".utf8), timeoutMilliseconds: 60_000)
        let reasons = try await recorder.closeReasons()
        #expect(reasons.count == 1)
        guard case .protocolError = reasons.first else { Issue.record("got \(reasons)"); return }
        #expect(try await Self.readUntilClosed(peer).ending == "the other side closed the connection")
    }

    @Test func thePeerClosingIsReportedOnce() async throws {
        let (fd, peer) = try Self.socketPair()
        let recorder = Recorder()
        let connection = recorder.connection(fd: fd)
        connection.start()
        UnixSocket.close(peer)
        #expect(try await recorder.closeReasons() == [.peerClosed])
        connection.close(reason: "after the peer")
        #expect(try await recorder.closeReasons() == [.peerClosed])
    }

    @Test(arguments: [true, false])
    func closingTwiceReportsTheFirstReasonOnce(started: Bool) async throws {
        let (fd, peer) = try Self.socketPair()
        defer { UnixSocket.close(peer) }
        let recorder = Recorder()
        let connection = recorder.connection(fd: fd)
        if started { connection.start() }
        connection.close(reason: "first")
        connection.close(reason: "second", flush: true)
        connection.start()  // too late: stays closed
        #expect(try await recorder.closeReasons() == [.local("first")])
        // Its socket is closed: the peer reads the end of the stream.
        #expect(try await Self.readUntilClosed(peer).ending == "the other side closed the connection")
    }
}
