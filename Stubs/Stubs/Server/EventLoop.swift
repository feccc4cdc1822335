import Foundation
import HarnessSystem
import Synchronization

/// One thread that serves every connection of a server with poll(2).
///
/// Sockets are non-blocking, so a stalled client never blocks the others. Other threads talk to
/// the loop only through `submit(_:)`, which queues a command and writes a byte to a wake-up pipe.
/// Delays and slow bodies are timers on the loop; nothing sleeps.
final class EventLoop: @unchecked Sendable {
    /// Work requested from other threads.
    enum Command {
        case stop
        /// Re-match the requests hanging on these stubs (they were removed).
        case releaseHangs(Set<StubID>)
    }

    private struct Mailbox {
        var commands: [Command] = []
        var isClosed = false
    }

    private let listener: Int32
    /// The loop thread: polls the listener and the connections, woken by `submit`.
    private let loop: ReadinessLoop
    private let mailbox = Mutex(Mailbox())
    private let finished = DispatchSemaphore(value: 0)
    private let limits: HTTPRequestParser.Limits
    private let lingerNanoseconds: UInt64
    /// Open client connections (for `StubServer.openConnectionCount` and leak tests).
    let gauge = ConnectionGauge()

    // Loop-thread state.
    private var handler: RequestHandling?
    private var connections: [UInt64: Connection] = [:]
    /// When to accept again after running out of descriptors.
    private var resumeAcceptingAt: UInt64?
    private var nextConnectionID: UInt64 = 0
    private var accepting = true
    private var running = true
    private var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)

    /// Takes ownership of a listening, non-blocking socket.
    init(listener: Int32, handler: RequestHandling, limits: HTTPRequestParser.Limits, lingerTimeout: Duration) throws(SystemError) {
        self.loop = try ReadinessLoop()
        self.listener = listener
        self.handler = handler
        self.limits = limits
        self.lingerNanoseconds = lingerTimeout.clampedNanoseconds
    }

    /// Starts the loop thread.
    func start(name: String) {
        loop.start(name: name, stackSize: 1 << 20) { [self] _ in run() }
    }

    /// Queues a command for the loop; ignored once the loop has finished.
    func submit(_ command: Command) {
        mailbox.withLock { mailbox in
            guard !mailbox.isClosed else { return }
            mailbox.commands.append(command)
            loop.wake()
        }
    }

    /// Stops the loop, closes every connection and the listener, and waits until it is done
    /// (unless called on the loop thread itself, which only requests the stop).
    func stopAndWait() {
        submit(.stop)
        if !loop.isLoopThread {
            finished.wait()
            finished.signal()  // Later callers return at once too.
        }
    }

    // MARK: - The loop

    private func run() {
        var pollSet: [Posix.PollDescriptor] = []
        var polled: [Connection] = []
        while running {
            pollSet.removeAll(keepingCapacity: true)
            polled.removeAll(keepingCapacity: true)
            pollSet.append(Posix.pollDescriptor(fd: accepting ? listener : -1, events: .readable))
            for connection in connections.values {
                var events: Posix.PollEvents = []
                if wantsRead(connection) { events.insert(.readable) }
                if connection.hasPendingOutput { events.insert(.writable) }
                pollSet.append(Posix.pollDescriptor(fd: connection.fd, events: events))
                polled.append(connection)
            }
            let woken: Bool
            do {
                woken = try loop.wait(&pollSet, timeoutMilliseconds: pollTimeout())
            } catch {
                // EINVAL/ENOMEM: nothing sensible to do but stop serving. (EINTR is retried.)
                break
            }
            if woken { runCommands() }
            if !pollSet[0].returnedEvents.isEmpty { acceptConnections() }
            for (index, connection) in polled.enumerated() {
                let returned = pollSet[index + 1].returnedEvents
                guard !returned.isEmpty, connection.phase != .closed else { continue }
                let failed = !returned.isDisjoint(with: .failures)
                if returned.contains(.writable) || failed && connection.hasPendingOutput {
                    flush(connection)
                }
                if connection.phase != .closed && (returned.contains(.readable) || failed) {
                    if connection.peerClosed && failed {
                        // Hang-up or error after EOF: nobody is left to talk to (and poll would spin).
                        close(connection)
                        continue
                    }
                    readAvailable(connection)
                }
                if connection.phase != .closed { drive(connection) }
            }
            fireTimers()
        }
        shutDown()
    }

    private func wantsRead(_ connection: Connection) -> Bool {
        if connection.peerClosed { return false }
        switch connection.phase {
        case .idle, .draining: return true
        case .closed: return false
        case .responding, .paused, .hanging:
            // Keep reading pipelined requests (and noticing EOF) up to a cap.
            return connection.input.count < 1 << 20
        }
    }

    private func pollTimeout() -> Int32 {
        var earliest = resumeAcceptingAt
        for connection in connections.values {
            if let deadline = connection.deadline, deadline < earliest ?? .max { earliest = deadline }
        }
        guard let earliest else { return -1 }
        return min(60_000, MonotonicClock.milliseconds(until: earliest))
    }

    private func runCommands() {
        let commands = mailbox.withLock { mailbox -> [Command] in
            defer { mailbox.commands.removeAll() }
            return mailbox.commands
        }
        for command in commands {
            switch command {
            case .stop:
                running = false
            case .releaseHangs(let ids):
                for connection in connections.values where connection.phase == .hanging {
                    if let id = connection.hangingStubID, ids.contains(id) { releaseHang(connection) }
                }
            }
        }
    }

    private func releaseHang(_ connection: Connection) {
        guard let handler, let request = connection.currentRequest, let recorded = connection.currentRecorded else {
            close(connection)
            return
        }
        let answer = handler.answerAgain(recorded)
        start(answer, for: request, on: connection)
        drive(connection)
    }

    private func acceptConnections() {
        for _ in 0..<256 {
            let fd: Int32
            do {
                guard let accepted = try Posix.accept(listener, nonBlocking: true) else { return }
                fd = accepted
            } catch {
                if error.errno == Posix.tooManyFiles || error.errno == Posix.tooManyFilesInSystem {
                    // Out of descriptors: stop accepting briefly instead of spinning.
                    accepting = false
                    resumeAcceptingAt = MonotonicClock.deadline(after: .milliseconds(50))
                }
                return
            }
            Posix.setNoDelay(fd)
            nextConnectionID += 1
            let connection = Connection(id: nextConnectionID, fd: fd, limits: limits)
            connections[connection.id] = connection
            gauge.add(1)
        }
    }

    private func fireTimers() {
        let now = MonotonicClock.nanoseconds()
        if let resume = resumeAcceptingAt, resume <= now {
            resumeAcceptingAt = nil
            accepting = true
        }
        for connection in connections.values {
            guard let deadline = connection.deadline, deadline <= now else { continue }
            connection.deadline = nil
            switch connection.deadlineAction {
            case .lingerExpired:
                if connection.phase == .draining { close(connection) }
            case .resume:
                if connection.phase == .paused {
                    connection.phase = .responding
                    drive(connection)
                }
            }
        }
    }

    private func shutDown() {
        mailbox.withLock { $0.isClosed = true }
        // A graceful stop: take connections still in the backlog and read what clients already
        // sent, so that closing sends a FIN (end of stream), not a reset for unread data.
        if accepting { acceptConnections() }
        for connection in connections.values {
            var drained = 0
            while drained < 1 << 20, let count = try? Posix.read(connection.fd, into: &readBuffer), count > 0 {
                drained += count
            }
            Posix.shutdownWrite(connection.fd)
            close(connection)
        }
        connections.removeAll()
        Posix.closeIgnoringErrors(listener)
        // A program another thread was spawning may have been forked with a copy of the
        // listener; the port is free once such children have executed.
        Posix.waitForSpawnsInFlight()
        loop.close()
        handler = nil
        finished.signal()
    }

    // MARK: - Connections

    private func close(_ connection: Connection) {
        guard connection.phase != .closed else { return }
        connection.phase = .closed
        Posix.closeIgnoringErrors(connection.fd)
        connections[connection.id] = nil
        gauge.add(-1)
    }

    private func reset(_ connection: Connection) {
        Posix.setResetOnClose(connection.fd)
        close(connection)
    }

    private func readAvailable(_ connection: Connection) {
        for _ in 0..<4 {
            let count: Int
            do {
                guard let read = try Posix.read(connection.fd, into: &readBuffer) else { return }  // would block
                count = read
            } catch {
                close(connection)  // ECONNRESET and friends.
                return
            }
            if count == 0 {
                connection.peerClosed = true
                return
            }
            if connection.phase == .draining { continue }  // Discard what arrives after our last response.
            readBuffer.withUnsafeBytes { connection.input.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            if count < readBuffer.count { return }
        }
    }

    /// Writes pending output; closes the connection on a write error.
    private func flush(_ connection: Connection) {
        while connection.hasPendingOutput {
            do {
                guard let sent = try Posix.send(connection.fd, bytes: connection.output, from: connection.outputOffset) else {
                    return  // would block: poll says when there is room
                }
                connection.outputOffset += sent
            } catch {
                close(connection)
                return
            }
        }
        connection.output.removeAll(keepingCapacity: connection.output.capacity <= 1 << 20)
        connection.outputOffset = 0
    }

    private func schedule(_ action: Connection.DeadlineAction, for connection: Connection, after nanoseconds: UInt64) {
        let now = MonotonicClock.nanoseconds()
        connection.deadline = UInt64.max - now > nanoseconds ? now + nanoseconds : UInt64.max
        connection.deadlineAction = action
    }

    /// Starts answering `request` as `answer` says.
    private func start(_ answer: RequestAnswer, for request: HTTPRequest, on connection: Connection) {
        connection.currentRequest = request
        connection.currentRecorded = answer.recorded
        connection.hangingStubID = answer.stubID
        connection.keepAlive = request.head.keepAlive
        connection.setSteps(Connection.steps(for: answer.behaviour, request: request))
        connection.phase = .responding
    }

    /// Advances the connection as far as it can go without waiting.
    private func drive(_ connection: Connection) {
        while true {
            if connection.hasPendingOutput {
                flush(connection)
                if connection.phase == .closed || connection.hasPendingOutput { return }
            }
            switch connection.phase {
            case .closed, .paused, .hanging:
                if connection.phase == .hanging && connection.peerClosed { close(connection) }
                return
            case .draining:
                if connection.peerClosed { close(connection) }
                return
            case .responding:
                guard let step = connection.popStep() else {
                    connection.phase = .idle
                    continue
                }
                switch step {
                case .write(let bytes):
                    connection.output = bytes
                    connection.outputOffset = 0
                case .throttled(let bytes, let perWrite, let interval):
                    connection.output = Array(bytes.prefix(perWrite))
                    connection.outputOffset = 0
                    if bytes.count > perWrite {
                        connection.pushFront([
                            .pause(nanoseconds: interval),
                            .throttled(Array(bytes.dropFirst(perWrite)), bytesPerWrite: perWrite, intervalNanoseconds: interval),
                        ])
                    }
                case .pause(let nanoseconds):
                    connection.phase = .paused
                    schedule(.resume, for: connection, after: nanoseconds)
                    return
                case .hang:
                    connection.phase = .hanging
                    if connection.peerClosed { close(connection) }
                    return
                case .close:
                    close(connection)
                    return
                case .reset:
                    reset(connection)
                    return
                case .finish:
                    connection.currentRequest = nil
                    connection.currentRecorded = nil
                    connection.hangingStubID = nil
                    if connection.keepAlive {
                        connection.phase = .idle
                    } else {
                        beginLingeringClose(connection)
                        return
                    }
                }
            case .idle:
                guard let event = connection.parser.next(in: &connection.input) else {
                    if connection.peerClosed { close(connection) }
                    return
                }
                switch event {
                case .expectContinue:
                    connection.output = HTTPResponseSerializer.continueResponse
                    connection.outputOffset = 0
                case .failure(let failure):
                    connection.keepAlive = false
                    connection.input.removeAll()
                    connection.setSteps([
                        .write(HTTPResponseSerializer.errorResponse(status: failure.status, message: failure.reason)),
                        .finish,
                    ])
                    connection.phase = .responding
                case .request(let request):
                    guard let handler else {
                        close(connection)
                        return
                    }
                    start(handler.answer(request), for: request, on: connection)
                }
            }
        }
    }

    /// Shuts down our side and discards input until the client closes or the linger timeout passes,
    /// so that unread client bytes do not turn our last response into a reset.
    private func beginLingeringClose(_ connection: Connection) {
        Posix.shutdownWrite(connection.fd)
        connection.phase = .draining
        connection.input.removeAll()
        if connection.peerClosed {
            close(connection)
            return
        }
        schedule(.lingerExpired, for: connection, after: lingerNanoseconds)
    }
}
