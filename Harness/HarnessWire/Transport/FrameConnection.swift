// A framed, full-duplex bridge connection: one I/O thread in poll over the socket and a wake-up
// pipe, non-blocking sends with a bounded queue, and a task executor on that thread.

import Foundation
import HarnessSystem

/// A framed, full-duplex connection over one socket, served by one I/O thread.
///
/// - Sending never blocks: a frame is written at once when the socket has room,
///   otherwise queued (bounded by `maxQueuedBytes`; beyond that, frames are
///   dropped and counted) and flushed by the I/O thread.
/// - Received messages are handed to `onMessage` on the I/O thread, in order.
/// - `onClose` runs exactly once, after the descriptors are closed.
/// - It is also a `TaskExecutor`: a task that prefers it runs on the I/O thread
///   between reads, so a message that resumes it costs no thread hop. Jobs
///   enqueued after the connection closed run on Dispatch's global queue.
///
/// Package-internal: used by `HarnessHost` and the harness's `BridgeListener`.
package final class FrameConnection: @unchecked Sendable {
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

    private enum State { case open, closingAfterFlush, closing, closed }

    private let fd: Int32
    /// The I/O thread: polls the socket and wakes up for queued frames, jobs and closes.
    private let loop: ReadinessLoop
    private let lock = NSLock()
    private var state = State.open
    private var closeReason: CloseReason?
    private var pending: [[UInt8]] = []
    private var pendingOffset = 0
    private var pendingBytes = 0
    private var dropped = 0
    private var decoder: FrameDecoder
    private let maxQueuedBytes: Int
    private let threadName: String
    private let onMessage: @Sendable (BridgeMessage) -> Void
    private let onClose: @Sendable (CloseReason) -> Void
    private var started = false
    private var jobs: [UnownedJob] = []

    /// Wraps a connected socket; takes ownership of `fd`. Call ``start()`` to begin reading.
    package init(
        fd: Int32,
        decoder: FrameDecoder = FrameDecoder(),
        maxQueuedBytes: Int = 64 * 1024 * 1024,
        threadName: String,
        onMessage: @escaping @Sendable (BridgeMessage) -> Void,
        onClose: @escaping @Sendable (CloseReason) -> Void
    ) throws(SystemError) {
        do { loop = try ReadinessLoop() } catch {
            Posix.closeIgnoringErrors(fd)
            throw error
        }
        self.fd = fd
        self.decoder = decoder
        self.maxQueuedBytes = maxQueuedBytes
        self.threadName = threadName
        self.onMessage = onMessage
        self.onClose = onClose
    }

    /// Starts the I/O thread (once).
    package func start() {
        lock.lock()
        guard !started else { lock.unlock(); return }
        started = true
        lock.unlock()
        loop.start(name: threadName) { [self] _ in run() }
    }

    /// The number of frames dropped because the queue was full.
    package var droppedFrameCount: Int {
        lock.lock(); defer { lock.unlock() }
        return dropped
    }

    /// Whether the connection is still open for sending.
    package var isOpen: Bool {
        lock.lock(); defer { lock.unlock() }
        return state == .open
    }

    /// Sends a frame without blocking; see ``SendOutcome``.
    @discardableResult
    package func send(_ frame: [UInt8]) -> SendOutcome {
        lock.lock()
        defer { lock.unlock() }
        guard state == .open else { return .closed }
        if pending.isEmpty {
            let sent: Int
            do {
                sent = try Posix.send(fd, bytes: frame, nonBlocking: true) ?? 0
            } catch {
                requestCloseLocked(.socketError(error), flush: false)
                return .closed
            }
            if sent == frame.count { return .sent }
            pending.append(frame)
            pendingOffset = sent
            pendingBytes = frame.count - sent
            loop.wake()
            return .queued
        }
        guard pendingBytes + frame.count <= maxQueuedBytes else {
            dropped += 1
            return .dropped
        }
        pending.append(frame)
        pendingBytes += frame.count
        return .queued
    }

    /// Closes the connection; with `flush`, queued frames are written first. Idempotent.
    package func close(reason: String, flush: Bool = false) {
        lock.lock()
        requestCloseLocked(.local(reason), flush: flush)
        let needsCleanup = !started
        if needsCleanup { started = true }
        lock.unlock()
        if needsCleanup { finish() }  // the I/O thread never ran: close here
    }

    private func requestCloseLocked(_ reason: CloseReason, flush: Bool) {
        switch state {
        case .open, .closingAfterFlush:
            if closeReason == nil { closeReason = reason }
            state = flush && state == .open ? .closingAfterFlush : .closing
            loop.wake()
        case .closing, .closed:
            break
        }
    }

    // MARK: - I/O thread

    private func run() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        reading: while true {
            runJobs()
            lock.lock()
            let current = state
            let wantsWrite = !pending.isEmpty
            let hasJobs = !jobs.isEmpty
            lock.unlock()
            if current == .closing || (current == .closingAfterFlush && !wantsWrite) { break }

            let ready: [Posix.PollEvents]
            do {
                let events: Posix.PollEvents = wantsWrite ? .readableOrWritable : .readable
                ready = try loop.wait([(fd, events)], timeoutMilliseconds: hasJobs ? 0 : -1)
            } catch {
                closeFromIOThread(.socketError(error))
                break
            }
            if !ready[0].isDisjoint(with: Posix.PollEvents.failures.union(.readable)) {
                if !readAvailable(into: &buffer) { break reading }
            }
            if ready[0].contains(.writable) { flushPending() }
        }
        finish()
    }

    /// Reads what is there and delivers whole messages; false when the connection must end.
    private func readAvailable(into buffer: inout [UInt8]) -> Bool {
        while true {
            let count: Int?
            do {
                count = try Posix.receive(fd, into: &buffer, nonBlocking: true)
            } catch {
                closeFromIOThread(.socketError(error))
                return false
            }
            guard let count else { return true }
            if count == 0 {
                closeFromIOThread(.peerClosed)
                return false
            }
            decoder.append(buffer[0..<count])
            while true {
                let message: BridgeMessage?
                do { message = try decoder.nextMessage() } catch {
                    closeFromIOThread(.protocolError(error))
                    return false
                }
                guard let message else { break }
                lock.lock()
                let open = state != .closing
                lock.unlock()
                guard open else { return false }
                onMessage(message)
            }
            if count < buffer.count { return true }
        }
    }

    private func flushPending() {
        lock.lock()
        defer { lock.unlock() }
        while let first = pending.first {
            let sent: Int
            do {
                sent = try Posix.send(fd, bytes: first, from: pendingOffset, nonBlocking: true) ?? 0
            } catch {
                requestCloseLocked(.socketError(error), flush: false)
                return
            }
            pendingOffset += sent
            pendingBytes -= sent
            if pendingOffset < first.count { return }
            pending.removeFirst()
            pendingOffset = 0
        }
    }

    private func closeFromIOThread(_ reason: CloseReason) {
        lock.lock()
        requestCloseLocked(reason, flush: false)
        lock.unlock()
    }

    private func finish() {
        lock.lock()
        state = .closed
        pending.removeAll()
        pendingBytes = 0
        let reason = closeReason ?? .local("closed")
        let leftover = jobs
        jobs.removeAll()
        lock.unlock()
        for job in leftover { runElsewhere(job) }
        Posix.closeIgnoringErrors(fd)
        loop.close()
        onClose(reason)
    }

    // MARK: - Executor

    /// Runs the jobs enqueued so far, on the I/O thread.
    private func runJobs() {
        while true {
            let batch = lock.withLock { () -> [UnownedJob] in
                defer { jobs.removeAll(keepingCapacity: true) }
                return jobs
            }
            if batch.isEmpty { return }
            for job in batch { run(job) }
        }
    }

    private func run(_ job: UnownedJob) {
        job.runSynchronously(on: asUnownedTaskExecutor())
    }

    private func runElsewhere(_ job: UnownedJob) {
        DispatchQueue.global().async { [self] in run(job) }
    }

    /// Whether the caller runs on this connection's I/O thread.
    package var isIOThread: Bool { loop.isLoopThread }

    /// Takes a job of a task that prefers this connection.
    private func enqueueJob(_ job: UnownedJob) {
        lock.lock()
        guard state != .closed else {
            lock.unlock()
            runElsewhere(job)
            return
        }
        jobs.append(job)
        lock.unlock()
        // The I/O thread runs the job before it next waits; any other thread wakes it. (A wake
        // after `finish` closed the loop does nothing.)
        if !loop.isLoopThread { loop.wake() }
    }
}

extension FrameConnection: TaskExecutor {
    package func enqueue(_ job: consuming ExecutorJob) {
        enqueueJob(UnownedJob(job))
    }
}
