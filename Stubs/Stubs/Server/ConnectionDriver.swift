import HarnessSystem

/// Serves one stub server's listener and client connections on the process's event loop
/// (`EventLoop.shared`), which serves every other server, session and bridge as well: no thread
/// of its own, per server or per connection.
///
/// The listener is watched for readability (accepting what is waiting); each connection is a
/// watch whose interest follows what it needs (reading while it may take input, writing while
/// output waits for buffer space). Sockets are non-blocking, so a stalled client never blocks
/// the others. Delays, slow bodies, lingering closes, request timeouts and the pause after
/// running out of descriptors are timers of the loop; nothing sleeps.
///
/// The listener's watch and the connections are loop-bound (``LoopBound``, checked on every
/// access); other threads reach them only through jobs (`releaseHangs`, `stop`).
final class ConnectionDriver: Sendable {
    private let loop: EventLoop
    private let listener: Int32
    private let handler: any RequestHandling
    private let limits: HTTPRequestParser.Limits
    private let lingerNanoseconds: UInt64
    private let requestTimeout: Duration
    private let idleTimeout: Duration
    /// Open client connections (for `StubServer.openConnectionCount` and leak tests).
    let gauge = ConnectionGauge()
    /// Requests received and not answered in full yet (for `StubServer.pendingAnswerCount`).
    let pendingAnswers = PendingAnswers()

    /// What only the loop reads and writes: the listener's watch, the connections, the
    /// accept pause, the read buffer.
    private struct Owned {
        var listenerWatch: EventLoop.Watch?
        var connections: [UInt64: Connection] = [:]
        var nextConnectionID: UInt64 = 0
        /// False while accepting pauses after running out of descriptors.
        var accepting = true
        var resumeAcceptingTimer: EventLoop.Timer?
        var isStopped = false
        var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    }

    private let owned: LoopBound<Owned>

    // The loop-bound fields by name (each access checks the loop).
    private var listenerWatch: EventLoop.Watch? {
        get { owned.value.listenerWatch }
        _modify { yield &owned.value.listenerWatch }
    }
    private var connections: [UInt64: Connection] {
        get { owned.value.connections }
        _modify { yield &owned.value.connections }
    }
    private var nextConnectionID: UInt64 {
        get { owned.value.nextConnectionID }
        _modify { yield &owned.value.nextConnectionID }
    }
    private var accepting: Bool {
        get { owned.value.accepting }
        _modify { yield &owned.value.accepting }
    }
    private var resumeAcceptingTimer: EventLoop.Timer? {
        get { owned.value.resumeAcceptingTimer }
        _modify { yield &owned.value.resumeAcceptingTimer }
    }
    private var isStopped: Bool {
        get { owned.value.isStopped }
        _modify { yield &owned.value.isStopped }
    }
    private var readBuffer: [UInt8] {
        get { owned.value.readBuffer }
        _modify { yield &owned.value.readBuffer }
    }

    /// Takes ownership of a listening, non-blocking socket; serves it once ``start()`` ran.
    init(
        listener: Int32, handler: any RequestHandling, limits: HTTPRequestParser.Limits, lingerTimeout: Duration,
        requestTimeout: Duration, idleTimeout: Duration, loop: EventLoop = .shared
    ) {
        self.loop = loop
        self.listener = listener
        self.handler = handler
        self.limits = limits
        self.lingerNanoseconds = lingerTimeout.clampedNanoseconds
        self.requestTimeout = requestTimeout
        self.idleTimeout = idleTimeout
        self.owned = LoopBound(Owned(), on: loop)
    }

    /// Starts watching the listener. Connections that arrive before are waiting in its backlog.
    func start() {
        loop.execute { [self] in
            guard !isStopped else { return }  // stopped on the loop before this job ran
            listenerWatch = loop.watch(listener, for: .readable) { [self] _ in listenerReady() }
        }
    }

    /// Matches again the requests hanging on these stubs (they were removed or replaced). Runs
    /// on the loop after the current handler (an admin request removing a stub is one).
    func releaseHangs(_ ids: Set<StubID>) {
        loop.execute { [self] in
            guard !isStopped else { return }
            for connection in connections.values where connection.phase == .hanging {
                guard let id = connection.hangingStubID, ids.contains(id) else { continue }
                releaseHang(connection)
                updateInterest(connection)
            }
        }
    }

    /// Closes every connection (after reading what clients already sent, so that each gets a
    /// FIN rather than a reset) and the listener, on the loop, and returns once that is done.
    /// Then waits until the programs other threads were spawning meanwhile have executed: one
    /// forked before the listener was closed holds a copy of it (and its port) until then.
    /// Called on the loop itself, it closes everything at once and does not wait for spawns
    /// (the loop never blocks). Idempotent.
    func stop() {
        loop.submitAndWait { [self] in shutDown() }
        if !loop.inLoop { Posix.waitForSpawnsInFlight() }
    }

    /// ``stop()``, awaited: the loop closes everything, then the blocking worker (which runs
    /// the spawns) waits for the spawns in flight; the caller's thread never blocks.
    func stopped() async {
        await loop.submit { [self] in shutDown() }
        await BlockingWorker.shared.run { Posix.waitForSpawnsInFlight() }
    }

    /// The requests not answered in full (as ``pendingAnswers`` counts them) and those begun but
    /// not complete, counted after reading what clients sent so far: the connections waiting
    /// in the listener's backlog are accepted and every idle one is read, on the loop, now.
    /// For a caller that knows its client is asleep, so that whatever the client sent is in the
    /// kernel's buffers: without the read, a request sent just before would not count yet.
    func pendingAnswersAfterReading() async -> Int {
        await loop.submit { [self] in countPendingAfterReading() }
    }

    /// ``pendingAnswersAfterReading()`` on the loop.
    func countPendingAfterReading() -> Int {
        guard !isStopped else { return 0 }
        if accepting { acceptConnections() }
        for (id, connection) in connections where connection.phase == .idle {
            connectionReady(id, .readable)
        }
        let begun = connections.values.filter {
            $0.phase == .idle && ($0.parser.isMidRequest || !$0.input.isEmpty)
        }.count
        return pendingAnswers.value + begun
    }

    // MARK: - The listener

    private func listenerReady() {
        guard accepting, !isStopped else { return }
        acceptConnections()
    }

    /// Accepts up to 256 waiting connections (the loop comes back for more: level-triggered).
    private func acceptConnections() {
        for _ in 0..<256 {
            let fd: Int32
            do {
                guard let accepted = try Posix.accept(listener, nonBlocking: true) else { return }
                fd = accepted
            } catch {
                if error.errno == Posix.tooManyFiles || error.errno == Posix.tooManyFilesInSystem {
                    pauseAccepting()
                }
                return
            }
            Posix.setNoDelay(fd)
            nextConnectionID += 1
            let id = nextConnectionID
            let connection = Connection(id: id, fd: fd, limits: limits)
            connection.interest = .readable
            connection.watch = loop.watch(fd, for: .readable) { [self] events in connectionReady(id, events) }
            connections[id] = connection
            gauge.add(1)
            awaitRequest(connection)
        }
    }

    /// Out of descriptors: stops accepting for 50 ms instead of spinning on the listener.
    private func pauseAccepting() {
        accepting = false
        if let listenerWatch { loop.setInterest(listenerWatch, Posix.PollEvents(rawValue: 0)) }
        resumeAcceptingTimer = loop.schedule(after: .milliseconds(50)) { [self] in
            resumeAcceptingTimer = nil
            guard !isStopped else { return }
            accepting = true
            if let listenerWatch { loop.setInterest(listenerWatch, .readable) }
        }
    }

    // MARK: - Events

    /// The loop reports `returned` on the connection `id`.
    private func connectionReady(_ id: UInt64, _ returned: Posix.PollEvents) {
        guard let connection = connections[id] else { return }
        let failed = returned.containsAny(of: .failures)
        if returned.containsAny(of: .writable) || failed && connection.hasPendingOutput {
            flush(connection)
        }
        if connection.phase != .closed && (returned.containsAny(of: .readable) || failed) {
            if connection.peerClosed && failed {
                // Hang-up or error after EOF: nobody is left to talk to (and the loop would
                // report it again and again).
                close(connection)
                return
            }
            readAvailable(connection)
        }
        if connection.phase != .closed { drive(connection) }
        updateInterest(connection)
    }

    /// The connection's timer fired.
    private func timerFired(_ id: UInt64) {
        guard let connection = connections[id] else { return }
        connection.timer = nil
        switch connection.deadlineAction {
        case .lingerExpired:
            if connection.phase == .draining { close(connection) }
        case .resume:
            if connection.phase == .paused {
                connection.phase = .responding
                drive(connection)
            }
        case .requestTimedOut:
            requestTimedOut(connection)
        }
        updateInterest(connection)
    }

    /// Tells the loop what the connection waits for now: reading while it may take input,
    /// writing while output is pending (failures are always reported).
    private func updateInterest(_ connection: Connection) {
        guard connection.phase != .closed, let watch = connection.watch else { return }
        let interest: Posix.PollEvents = switch (wantsRead(connection), connection.hasPendingOutput) {
        case (true, true): .readableOrWritable
        case (true, false): .readable
        case (false, true): .writable
        case (false, false): Posix.PollEvents(rawValue: 0)
        }
        guard interest != connection.interest else { return }
        connection.interest = interest
        loop.setInterest(watch, interest)
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

    private func releaseHang(_ connection: Connection) {
        guard let request = connection.currentRequest, let recorded = connection.currentRecorded else {
            close(connection)
            return
        }
        let answer = handler.answerAgain(recorded)
        start(answer, for: request, on: connection)
        drive(connection)
    }

    // MARK: - Stopping

    private func shutDown() {
        guard !isStopped else { return }
        isStopped = true
        if let timer = resumeAcceptingTimer { loop.cancel(timer) }
        resumeAcceptingTimer = nil
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
        if let listenerWatch {
            loop.unwatch(listenerWatch, closing: true)  // on the loop: closed before this returns
        } else {
            Posix.closeIgnoringErrors(listener)
        }
        listenerWatch = nil
    }

    // MARK: - Connections

    private func close(_ connection: Connection) {
        guard connection.phase != .closed else { return }
        connection.phase = .closed
        if let timer = connection.timer { loop.cancel(timer) }
        connection.timer = nil
        if let watch = connection.watch {
            loop.unwatch(watch, closing: true)  // on the loop: closed before this returns
        } else {
            Posix.closeIgnoringErrors(connection.fd)
        }
        connection.watch = nil
        connections[connection.id] = nil
        setAnswering(connection, false)
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
                    return  // would block: the loop reports when there is room (writable interest)
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

    /// Arms the connection's one timer (replacing the one it had) for `action`.
    private func schedule(_ action: Connection.DeadlineAction, for connection: Connection, after nanoseconds: UInt64) {
        if let timer = connection.timer { loop.cancel(timer) }
        let (deadline, overflow) = MonotonicClock.nanoseconds().addingReportingOverflow(nanoseconds)
        let id = connection.id
        connection.deadlineAction = action
        connection.timer = loop.schedule(at: overflow ? .max : deadline) { [self] in timerFired(id) }
    }

    /// Starts answering `request` as `answer` says.
    private func start(_ answer: RequestAnswer, for request: HTTPRequest, on connection: Connection) {
        connection.currentRequest = request
        connection.currentRecorded = answer.recorded
        connection.hangingStubID = answer.stubID
        connection.keepAlive = request.head.keepAlive
        connection.setSteps(Connection.steps(for: answer.behaviour, request: request))
        connection.phase = .responding
        setAnswering(connection, true)
    }

    /// Counts `connection` among those answering a request, or no longer.
    private func setAnswering(_ connection: Connection, _ answering: Bool) {
        guard connection.answering != answering else { return }
        connection.answering = answering
        pendingAnswers.add(answering ? 1 : -1)
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
                    setAnswering(connection, false)
                    if connection.peerClosed { close(connection) }
                    return
                case .close:
                    close(connection)
                    return
                case .reset:
                    reset(connection)
                    return
                case .finish:
                    setAnswering(connection, false)
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
                    if connection.peerClosed {
                        close(connection)
                    } else {
                        awaitRequest(connection)
                    }
                    return
                }
                if case .expectContinue = event {} else { stopAwaitingRequest(connection) }
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
                    start(handler.answer(request), for: request, on: connection)
                }
            }
        }
    }

    // MARK: - The request timeout

    /// Arms the connection's timer for the stage of waiting it is in (idle, or reading a
    /// request), unless it already runs for that stage: bytes that trickle in never move it.
    private func awaitRequest(_ connection: Connection) {
        let reading = connection.requestWait == .reading || connection.parser.isMidRequest || !connection.input.isEmpty
        let stage: Connection.RequestWait = reading ? .reading : .idle
        guard stage != connection.requestWait else { return }
        connection.requestWait = stage
        schedule(.requestTimedOut, for: connection, after: (reading ? requestTimeout : idleTimeout).clampedNanoseconds)
    }

    /// A whole request (or a malformed one) arrived: its deadline no longer applies.
    private func stopAwaitingRequest(_ connection: Connection) {
        guard connection.requestWait != .none else { return }
        connection.requestWait = .none
        if connection.deadlineAction == .requestTimedOut, let timer = connection.timer {
            loop.cancel(timer)
            connection.timer = nil
        }
    }

    /// The request or idle timeout passed: an idle connection is closed (gracefully, so a request the
    /// client sent meanwhile ends in a FIN, not a reset); one in the middle of a request is
    /// answered 408 and closed.
    private func requestTimedOut(_ connection: Connection) {
        guard connection.phase == .idle, connection.requestWait != .none else { return }
        let wasReading = connection.requestWait == .reading
        connection.requestWait = .none
        connection.keepAlive = false
        guard wasReading else {
            beginLingeringClose(connection)
            return
        }
        connection.input.removeAll()
        connection.setSteps([
            .write(HTTPResponseSerializer.errorResponse(
                status: 408, message: "the request was not complete within the request timeout of \(requestTimeout)")),
            .finish,
        ])
        connection.phase = .responding
        drive(connection)
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
