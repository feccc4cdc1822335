// A framed, full-duplex bridge connection on the process's event loop: the socket is watched
// for reading always and for writing while frames are queued; sends never block.

import Foundation
import HarnessSystem

/// A framed, full-duplex connection over one socket, watched by the process's ``EventLoop``.
///
/// - Sending never blocks: a frame is written at once when the socket has room,
///   otherwise queued (bounded by `maxQueuedBytes`; beyond that, frames are
///   dropped and counted) and written by the loop when the socket is writable.
/// - Received messages are handed to `onMessage` on the loop, in order.
/// - `onClose` runs exactly once, on the loop, after the socket was closed there.
///
/// No thread per connection: every connection of the process shares the loop's one thread.
/// Package-internal: used by `HarnessHost` and the harness's `BridgeListener`.
package final class FrameConnection: Sendable {
    /// Why a connection ended.
    package enum CloseReason: Sendable, Equatable, CustomStringConvertible {
        /// `close(reason:)` was called on this side.
        case local(String)
        /// The other side closed the socket (end of stream).
        case peerClosed
        /// A read or write failed.
        case socketError(SystemError)
        /// The other side sent bytes that are not valid frames.
        case protocolError(WireError)

        package var description: String {
            switch self {
            case .local(let reason): "closed locally: \(reason)"
            case .peerClosed: "the other side closed the connection"
            case .socketError(let error): error.description
            case .protocolError(let error): "protocol error: \(error.description)"
            }
        }
    }

    /// What happened to a frame given to `send`.
    package enum SendOutcome: Sendable, Equatable {
        case sent, queued, dropped, closed
    }

    private enum Phase { case open, closingAfterFlush, closing, closed }

    /// Everything any thread may touch, under one lock.
    private struct State {
        var phase = Phase.open
        /// The loop's registration of the socket (nil before ``start()`` and after the close).
        var watch: EventLoop.Watch?
        var started = false
        /// Whether the loop is asked for writability; changed on the loop only.
        var watchesWrite = false
        /// A job that closes the socket is queued on the loop.
        var finishQueued = false
        var closeReason: CloseReason?
        var pending: [[UInt8]] = []
        var pendingOffset = 0
        var pendingBytes = 0
        var dropped = 0
    }

    /// What a read of the socket gave.
    private enum ReadOutcome {
        case wouldBlock
        case endOfStream
        case failed(SystemError)
        case read(filledBuffer: Bool)
    }

    /// One read buffer for every connection: reads happen on the loop only, one at a time.
    private static let readBuffer = Locked([UInt8](repeating: 0, count: 64 * 1024))

    private let fd: Int32
    private let loop: EventLoop
    private let state = Locked(State())
    /// The incoming bytes not yet decoded; touched by the loop's handler only.
    private let decoder: LoopBound<FrameDecoder>
    private let maxQueuedBytes: Int
    private let onMessage: @Sendable (BridgeMessage) -> Void
    private let onClose: @Sendable (CloseReason) -> Void

    /// Wraps a connected socket; takes ownership of `fd`. Call ``start()`` to begin reading.
    package init(
        fd: Int32,
        decoder: FrameDecoder = FrameDecoder(),
        maxQueuedBytes: Int = 64 * 1024 * 1024,
        loop: EventLoop = .shared,
        onMessage: @escaping @Sendable (BridgeMessage) -> Void,
        onClose: @escaping @Sendable (CloseReason) -> Void
    ) {
        self.fd = fd
        self.loop = loop
        self.decoder = LoopBound(decoder, on: loop)
        self.maxQueuedBytes = maxQueuedBytes
        self.onMessage = onMessage
        self.onClose = onClose
    }

    deinit {
        // Reached only for a connection never started nor closed: a started one is kept alive
        // by its watch, and a closed one closed its socket on the loop.
        if state.withLock({ $0.phase != .closed && !$0.finishQueued }) { Posix.closeIgnoringErrors(fd) }
    }

    /// Registers the socket with the loop (once); a connection already closed stays closed.
    package func start() {
        state.withLock { state in
            guard !state.started, state.phase == .open else { return }
            state.started = true
            state.watchesWrite = !state.pending.isEmpty
            // Under the lock: a close queued after this finds the watch (the loop runs jobs in
            // the order they were queued).
            state.watch = loop.watch(fd, for: state.watchesWrite ? .readableOrWritable : .readable) { [self] events in
                handle(events)
            }
        }
    }

    /// The number of frames dropped because the queue was full.
    package var droppedFrameCount: Int { state.withLock { $0.dropped } }

    /// Whether the connection is still open for sending.
    package var isOpen: Bool { state.withLock { $0.phase == .open } }

    /// Sends a frame without blocking; see ``SendOutcome``.
    @discardableResult
    package func send(_ frame: [UInt8]) -> SendOutcome {
        var failure: SystemError?
        let outcome = state.withLock { state -> SendOutcome in
            guard state.phase == .open else { return .closed }
            guard state.pending.isEmpty else {
                guard state.pendingBytes + frame.count <= maxQueuedBytes else {
                    state.dropped += 1
                    return .dropped
                }
                state.pending.append(frame)
                state.pendingBytes += frame.count
                return .queued
            }
            let sent: Int
            do throws(SystemError) {
                sent = try Posix.send(fd, bytes: frame, nonBlocking: true) ?? 0
            } catch {
                failure = error
                return .closed
            }
            if sent == frame.count { return .sent }
            state.pending.append(frame)
            state.pendingOffset = sent
            state.pendingBytes = frame.count - sent
            return .queued
        }
        if let failure {
            requestClose(.socketError(failure), flush: false)
        } else if outcome == .queued {
            onLoop { $0.updateInterest() }
        }
        return outcome
    }

    /// Closes the connection; with `flush`, queued frames are written first. Idempotent.
    package func close(reason: String, flush: Bool = false) {
        requestClose(.local(reason), flush: flush)
    }

    /// Whether the caller runs on the thread that reads this connection (the event loop's).
    package var isIOThread: Bool { loop.inLoop }

    // MARK: - Closing

    /// Records the first reason and, unless frames are to be flushed first, queues the close on
    /// the loop (also from the loop: it runs after the current handler).
    private func requestClose(_ reason: CloseReason, flush: Bool) {
        let mustFinish = state.withLock { state -> Bool in
            switch state.phase {
            case .open, .closingAfterFlush:
                if state.closeReason == nil { state.closeReason = reason }
                if flush, state.phase == .open, state.started, !state.pending.isEmpty {
                    state.phase = .closingAfterFlush  // the write handler finishes
                    return false
                }
                state.phase = .closing
                guard !state.finishQueued else { return false }
                state.finishQueued = true
                return true
            case .closing, .closed:
                return false
            }
        }
        if mustFinish { loop.execute { [self] in finish() } }
    }

    /// On the loop, once: stops watching and closes the socket, then calls `onClose`.
    private func finish() {
        let ending = state.withLock { state -> (watch: EventLoop.Watch?, reason: CloseReason)? in
            guard state.phase != .closed else { return nil }
            state.phase = .closed
            state.pending.removeAll()
            state.pendingBytes = 0
            defer { state.watch = nil }
            return (state.watch, state.closeReason ?? .local("closed"))
        }
        guard let ending else { return }
        if let watch = ending.watch {
            loop.unwatch(watch, closing: true)
        } else {
            Posix.closeIgnoringErrors(fd)  // never registered
        }
        onClose(ending.reason)
    }

    // MARK: - On the loop

    private func handle(_ events: Posix.PollEvents) {
        if !events.isDisjoint(with: Posix.PollEvents.failures.union(.readable)) { readAvailable() }
        if events.contains(.writable) { flushPending() }
    }

    /// Whether messages may still be delivered and bytes read.
    private var isReading: Bool {
        state.withLock { $0.phase == .open || $0.phase == .closingAfterFlush }
    }

    /// Reads what is there and delivers whole messages, until the socket has no more.
    private func readAvailable() {
        while isReading {
            let outcome = Self.readBuffer.withLock { buffer -> ReadOutcome in
                let count: Int?
                do throws(SystemError) {
                    count = try Posix.receive(fd, into: &buffer, nonBlocking: true)
                } catch { return .failed(error) }
                guard let count else { return .wouldBlock }
                if count == 0 { return .endOfStream }
                decoder.value.append(buffer[0..<count])
                return .read(filledBuffer: count == buffer.count)
            }
            switch outcome {
            case .wouldBlock:
                return
            case .endOfStream:
                return requestClose(.peerClosed, flush: false)
            case .failed(let error):
                return requestClose(.socketError(error), flush: false)
            case .read(let filledBuffer):
                guard deliverMessages() else { return }
                if !filledBuffer { return }
            }
        }
    }

    /// Hands every whole message decoded so far to `onMessage`; false when the connection ends.
    private func deliverMessages() -> Bool {
        while true {
            let decoded: Result<BridgeMessage?, WireError> = decoder.withValue { decoder in
                do throws(WireError) { return .success(try decoder.nextMessage()) } catch { return .failure(error) }
            }
            switch decoded {
            case .failure(let error):
                requestClose(.protocolError(error), flush: false)
                return false
            case .success(nil):
                return true
            case .success(let message?):
                guard isReading else { return false }
                onMessage(message)
            }
        }
    }

    /// Writes queued frames while the socket takes them; finishes a flushing close.
    private func flushPending() {
        var failure: SystemError?
        let flushed = state.withLock { state -> Bool in
            while let first = state.pending.first {
                let sent: Int
                do throws(SystemError) {
                    sent = try Posix.send(fd, bytes: first, from: state.pendingOffset, nonBlocking: true) ?? 0
                } catch {
                    failure = error
                    return false
                }
                state.pendingOffset += sent
                state.pendingBytes -= sent
                if state.pendingOffset < first.count { return false }
                state.pending.removeFirst()
                state.pendingOffset = 0
            }
            return true
        }
        if let failure { return requestClose(.socketError(failure), flush: false) }
        updateInterest()
        if flushed, state.withLock({ $0.phase == .closingAfterFlush }) {
            requestClose(.local("flushed"), flush: false)  // the first reason stays
        }
    }

    /// Asks the loop for writability exactly while frames are queued. On the loop, so that
    /// the last change wins whichever thread queued a frame.
    private func updateInterest() {
        state.withLock { state in
            guard let watch = state.watch, state.phase != .closed else { return }
            let wantsWrite = !state.pending.isEmpty
            guard wantsWrite != state.watchesWrite else { return }
            state.watchesWrite = wantsWrite
            loop.setInterest(watch, wantsWrite ? .readableOrWritable : .readable)
        }
    }

    /// Runs `body` on the loop: now when already there, else as a job.
    private func onLoop(_ body: @escaping @Sendable (FrameConnection) -> Void) {
        if loop.inLoop { body(self) } else { loop.execute { [self] in body(self) } }
    }
}
