import Foundation
import HarnessWire
import HarnessSystem

/// The test side's state of one bridge: the connection, the handshake, pending
/// calls and waits, the event log and the spy records. Every wait is a
/// continuation resumed by the event loop (a message read, a timeout timer), cancellation or
/// the end of the connection, whichever comes first, exactly once.
final class BridgeClient: Sendable {
    /// Why the bridge ended; each waiter turns it into a ``BridgeError``.
    enum EndCause: Sendable {
        case appExited(String)
        /// The app wrote to its terminal without having connected.
        case noHost
        case connectionLost(String)
        case protocolError(WireError)
        case authenticationFailed(String)
        case versionMismatch(app: Int)
        case closed
    }

    /// What a waiter waits for.
    enum WaitKind {
        case ready
        /// A call, and the name an "unknown name" reply refers to (the spy of a `__spy.` call).
        case call(name: String, target: String)
        case spy(name: String, index: Int)
        case events(filter: String?, count: Int)
    }

    /// What a waiter gets.
    enum Outcome: Sendable {
        case nothing
        case json(RawJSON)
        case events([BridgeEvent])
    }

    private typealias Waiter = WaiterTable<WaitKind, Outcome>.Waiter

    /// Everything the connection, the loop's timers and the test's tasks share, under one lock.
    struct State {
        var connection: FrameConnection?
        var everConnected = false
        var authenticated = false
        var ready = false
        var helloApp = ""
        var helloPID = 0
        var end: EndCause?
        var exitStatus: String?
        var disconnectReason: String?
        /// The loop timer that gives the process watcher `exitGrace` after the connection dropped.
        var exitGraceTimer: EventLoop.Timer?
        var nextSubscriberID: UInt64 = 1
        /// The events with the time each arrived (for the report's timeline), the newest up to
        /// the output limit; the cursors are absolute positions in it.
        var eventLog: BoundedLog<(event: BridgeEvent, receivedAt: Date)>
        /// Every spy record with the time it arrived, in arrival order, for the report's timeline.
        var recordLog: [(spy: String, value: RawJSON, receivedAt: Date)] = []
        var eventCursors: [String: Int] = [:]
        var subscribers: [UInt64: AsyncStream<BridgeEvent>.Continuation] = [:]
        var records: [String: [RawJSON]] = [:]

        /// Takes `count` events matching `filter` after that filter's cursor, advancing it; nil
        /// if not enough yet.
        mutating func takeEvents(_ count: Int, filter: String?) -> [BridgeEvent]? {
            let key = filter ?? "*"
            // A cursor in the dropped part goes on from the oldest event kept.
            var index = eventLog.clamped(eventCursors[key] ?? 0)
            var found: [BridgeEvent] = []
            while let entry = eventLog[position: index], found.count < count {
                if filter == nil || entry.event.name == filter { found.append(entry.event) }
                index += 1
            }
            guard found.count == count else { return nil }
            eventCursors[key] = index
            return found
        }
    }

    let token: String
    let maxFrameSize: Int
    /// The most bytes of events kept (``OutputLimit``).
    let eventLimit: Int
    let exitGrace: Duration
    let diagnostics: @Sendable () -> String?

    private let state: Locked<State>
    /// The pending calls and waits, on the event loop.
    private let waiters = WaiterTable<WaitKind, Outcome>()

    init(token: String, maxFrameSize: Int, eventLimit: Int = OutputLimit.standard, exitGrace: Duration,
         diagnostics: @escaping @Sendable () -> String?) {
        self.token = token
        self.maxFrameSize = maxFrameSize
        self.eventLimit = eventLimit
        state = Locked(State(eventLog: BoundedLog(limit: eventLimit)))
        self.exitGrace = exitGrace
        self.diagnostics = diagnostics
        waiters.describeTimeouts(with: self) { $0.timeoutError($1.condition, timeout: $1.timeout ?? .zero) }
    }

    /// Whether the caller runs on the thread that reads the bridge (the event loop's).
    var isOnBridgeThread: Bool { state.withLock { $0.connection }?.isIOThread ?? false }

    var appName: String { state.withLock { $0.helloApp } }
    var appPID: Int { state.withLock { $0.helloPID } }
    /// The events kept (the newest, up to the output limit), in order.
    var receivedEvents: [BridgeEvent] { state.withLock { $0.eventLog.elements.map(\.event) } }
    /// The events kept with the time each arrived, in order.
    var timedEvents: [(event: BridgeEvent, receivedAt: Date)] { state.withLock { Array($0.eventLog.elements) } }
    /// How many older events were dropped by the output limit, and their bytes.
    var droppedEvents: (count: Int, bytes: Int) { state.withLock { ($0.eventLog.droppedCount, $0.eventLog.droppedBytes) } }
    /// Every spy record with the time it arrived, in arrival order.
    var timedRecords: [(spy: String, value: RawJSON, receivedAt: Date)] { state.withLock { $0.recordLog } }

    func recordCount(spy name: String) -> Int { state.withLock { $0.records[name]?.count ?? 0 } }
    func recordedValues(spy name: String) -> [RawJSON] { state.withLock { $0.records[name] ?? [] } }

    // MARK: - Connection life cycle

    /// Adopts the one accepted connection (before it starts reading).
    func attach(_ connection: FrameConnection) -> Bool {
        state.withLock { state in
            guard state.end == nil, state.connection == nil else { return false }
            state.connection = connection
            state.everConnected = true
            return true
        }
    }

    /// Called on the event loop for each incoming message.
    func receive(_ message: BridgeMessage) {
        let isAuthenticated = state.withLock { $0.authenticated }
        guard isAuthenticated else {
            authenticate(message)
            return
        }
        switch message {
        case .ready:
            let resumed = state.withLock { state -> [Waiter] in
                state.ready = true
                return waiters.removeAll { if case .ready = $0.condition { true } else { false } }
            }
            for waiter in resumed { waiter.resume(returning: .nothing) }
        case .reply(let id, let result):
            let call = waiters.remove(id) { if case .call = $0.condition { true } else { false } }
            guard let waiter = call, case .call(let name, let target) = waiter.condition else { return }
            switch result {
            case .success(let value):
                waiter.resume(returning: .json(value))
            case .failure(let remote) where remote.code == BridgeErrorCode.unknownName.rawValue:
                waiter.resume(throwing: BridgeError.unknownName(target, available: remote.available ?? []))
            case .failure(let remote):
                waiter.resume(throwing: BridgeError.remoteError(name: name, code: remote.code, message: remote.message))
            }
        case .event(let seq, let name, let value):
            let event = BridgeEvent(seq: seq, name: name, value: value)
            let (streams, satisfied) = state.withLock { state -> ([AsyncStream<BridgeEvent>.Continuation], [(waiter: Waiter, outcome: Outcome)]) in
                // The weight: the value's JSON, the name, and the entry itself.
                state.eventLog.append((event, Date()), weight: value.data.count + name.utf8.count + 64)
                return (Array(state.subscribers.values), satisfyEventWaiters(&state))
            }
            for stream in streams { stream.yield(event) }
            for (waiter, outcome) in satisfied { waiter.resume(returning: outcome) }
        case .record(let spy, _, let value):
            let satisfied = state.withLock { state -> [(waiter: Waiter, outcome: Outcome)] in
                state.records[spy, default: []].append(value)
                state.recordLog.append((spy, value, Date()))
                let values = state.records[spy]!
                return waiters.removeSatisfied { waiter -> Outcome? in
                    guard case .spy(let name, let index) = waiter.condition, name == spy, index < values.count else { return nil }
                    return .json(values[index])
                }
            }
            for (waiter, outcome) in satisfied { waiter.resume(returning: outcome) }
        case .goodbye(let reason):
            state.withLock { $0.disconnectReason = "the app said goodbye: \(reason)" }
        default:
            state.withLock { $0.connection }?.close(reason: "unexpected '\(message.typeName)' from the app")
            finish(.protocolError(.unknownMessageType("\(message.typeName) (not allowed from the app)")))
        }
    }

    private func authenticate(_ message: BridgeMessage) {
        guard case .hello(let version, let presented, let pid, let app) = message else {
            refuse(code: .protocolViolation, reason: "the first message must be hello, got \(message.typeName)",
                   cause: .authenticationFailed("the app's first message was '\(message.typeName)', not hello"))
            return
        }
        guard version == BridgeProtocol.version else {
            refuse(code: .versionMismatch, reason: "harness speaks version \(BridgeProtocol.version), app \(version)",
                   cause: .versionMismatch(app: version))
            return
        }
        guard Self.constantTimeEqual(presented, token) else {
            let reason = presented.isEmpty ? "the hello carried no token" : "the hello carried a wrong token"
            refuse(code: .badToken, reason: reason, cause: .authenticationFailed(reason))
            return
        }
        let connection = state.withLock { state -> FrameConnection? in
            state.authenticated = true
            state.helloApp = app
            state.helloPID = pid
            return state.connection
        }
        connection?.send(try! BridgeFrame.encode(.welcome(version: BridgeProtocol.version)))
    }

    private func refuse(code: BridgeErrorCode, reason: String, cause: EndCause) {
        // The cause is recorded before the app hears of it: a refused app exits at once, and
        // its exit must not be taken for the reason the bridge ended.
        finish(cause)
        let connection = state.withLock { $0.connection }
        connection?.send(try! BridgeFrame.encode(.refused(code: code.rawValue, reason: reason)))
        connection?.close(reason: "refused: \(reason)", flush: true)
    }

    /// Whether `presented` is exactly `expected`, byte for byte: values of different lengths
    /// never match (the token's length is no secret), and values of the same length are compared
    /// in full, whatever byte differs first (an XOR of every pair, accumulated), so the time
    /// taken says nothing about how much of the token was right.
    static func constantTimeEqual(_ presented: String, _ expected: String) -> Bool {
        let left = Array(presented.utf8), right = Array(expected.utf8)
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in 0..<left.count { difference |= left[index] ^ right[index] }
        return difference == 0
    }

    /// Called once by the connection after it closed.
    func connectionClosed(_ reason: FrameConnection.CloseReason) {
        switch reason {
        case .protocolError(let error):
            finish(.protocolError(error))
        case .local:
            break  // closed by us; `finish` was or will be called by whoever closed it
        case .peerClosed, .socketError:
            let status = state.withLock { state -> String? in
                if state.disconnectReason == nil { state.disconnectReason = reason.description }
                guard state.exitStatus == nil, state.end == nil, state.exitGraceTimer == nil else { return state.exitStatus }
                // The app probably died: give the process watcher `exitGrace` to report its status.
                state.exitGraceTimer = EventLoop.shared.schedule(after: exitGrace) { [weak self] in
                    guard let self else { return }
                    let reason = self.state.withLock { $0.disconnectReason } ?? reason.description
                    self.finish(.connectionLost(reason))
                }
                return nil
            }
            if let status { finish(.appExited(status)) }
        }
    }

    /// The app wrote to its terminal and no connection came before (the listener checked for
    /// one waiting to be accepted): it has no host, so every pending and future wait fails at
    /// once with ``BridgeError/noHost(diagnostics:)``. Nothing when it did connect.
    func appWroteWithoutConnecting() {
        let connected = state.withLock { $0.everConnected || $0.end != nil }
        if !connected { finish(.noHost) }
    }

    /// The app process exited: every pending and future wait fails at once.
    func appExited(_ status: String) {
        let connection = state.withLock { state -> FrameConnection? in
            if state.exitStatus == nil { state.exitStatus = status }
            return state.connection
        }
        connection?.close(reason: "the app exited")
        finish(.appExited(status))
    }

    /// Ends the bridge with `cause` (first cause wins) and fails every waiter.
    func finish(_ cause: EndCause) {
        let (streams, connection, graceTimer) = state.withLock { state in
            if state.end == nil { state.end = cause }
            let streams = Array(state.subscribers.values)
            state.subscribers.removeAll()
            defer { state.exitGraceTimer = nil }
            return (streams, state.connection, state.exitGraceTimer)
        }
        if let graceTimer { EventLoop.shared.cancel(graceTimer) }
        if case .closed = cause { connection?.close(reason: "the test closed the bridge") }
        for stream in streams { stream.finish() }
        // The waiters live on the loop; a wait admitted after this sees `end` and fails at once.
        EventLoop.shared.onLoop { [self] in failPendingWaiters() }
    }

    /// Fails every pending wait with the end's cause (on the loop).
    private func failPendingWaiters() {
        let pending = waiters.removeAll()
        guard !pending.isEmpty, let endCause = state.withLock({ $0.end }) else { return }
        let text = diagnostics()
        for waiter in pending {
            waiter.resume(throwing: error(for: endCause, during: waiter.condition, diagnostics: text))
        }
    }

    private func error(for cause: EndCause, during kind: WaitKind, diagnostics: String?) -> BridgeError {
        let during = Self.describe(kind)
        switch cause {
        case .appExited(let status): return .appExited(status: status, during: during, diagnostics: diagnostics)
        case .noHost: return .noHost(diagnostics: diagnostics)
        case .connectionLost(let reason): return .connectionLost(reason: reason, during: during, diagnostics: diagnostics)
        case .protocolError(let error): return .protocolError(error, diagnostics: diagnostics)
        case .authenticationFailed(let reason): return .authenticationFailed(reason: reason, diagnostics: diagnostics)
        case .versionMismatch(let app): return .versionMismatch(app: app, harness: BridgeProtocol.version)
        case .closed: return .closed
        }
    }

    static func describe(_ kind: WaitKind) -> String {
        switch kind {
        case .ready: "the wait for ready"
        case .call(let name, _): "call '\(name)'"
        case .spy(let name, let index): "the wait for call #\(index + 1) of spy '\(name)'"
        case .events(let filter, let count): "the wait for \(count) event(s)" + (filter.map { " named '\($0)'" } ?? "")
        }
    }

    // MARK: - Waiting

    /// Registers a waiter (unless `immediate` already has the outcome) and waits for it.
    ///
    /// - Parameters:
    ///   - immediate: runs on the loop, under the lock; returns the outcome if it is already there.
    ///   - afterRegistering: runs on the loop, outside the lock, once the waiter is registered
    ///     (sends a call).
    func wait(
        _ kind: WaitKind,
        timeout: Duration,
        immediate: (@Sendable (inout State) -> Outcome?)? = nil,
        afterRegistering: (@Sendable (UInt64) -> Void)? = nil
    ) async throws -> Outcome {
        try await waiters.wait(description: Self.describe(kind), timeout: timeout, admit: { [self] registration in
            enum Decision { case registered, done(Outcome), failed(EndCause) }
            let decision = state.withLock { state -> Decision in
                if let outcome = immediate?(&state) { return .done(outcome) }
                if let end = state.end { return .failed(end) }
                waiters.insert(registration, kind)
                return .registered
            }
            switch decision {
            case .done(let outcome): registration.resume(returning: outcome)
            case .failed(let cause): registration.resume(throwing: error(for: cause, during: kind, diagnostics: diagnostics()))
            case .registered: break
            }
        }, afterInserting: afterRegistering)
    }

    /// What a wait that timed out is told, with what arrived meanwhile.
    private func timeoutError(_ kind: WaitKind, timeout: Duration) -> BridgeError {
        let text = diagnostics()
        switch kind {
        case .ready:
            let connected = state.withLock { $0.everConnected }
            return connected ? .notReady(timeout: timeout, diagnostics: text) : .neverConnected(timeout: timeout, diagnostics: text)
        case .call(let name, _):
            return .callTimedOut(name: name, timeout: timeout, diagnostics: text)
        case .spy(let name, let index):
            let values = recordedValues(spy: name)
            return .waitTimedOut(
                what: Self.describe(kind), timeout: timeout,
                received: "\(values.count) call(s) of '\(name)' so far (waited for #\(index + 1))", diagnostics: text)
        case .events(let filter, _):
            let log = receivedEvents.filter { filter == nil || $0.name == filter }
            let shown = log.suffix(20).map(\.description).joined(separator: "\n  ")
            return .waitTimedOut(
                what: Self.describe(kind), timeout: timeout,
                received: log.isEmpty ? "no matching events" : "\(log.count) matching event(s), the last ones:\n  \(shown)",
                diagnostics: text)
        }
    }

    /// Fails a registered waiter at once (e.g. its call could not be sent).
    func fail(_ id: UInt64, with error: BridgeError) {
        waiters.remove(id)?.resume(throwing: error)
    }

    // MARK: - Ready, calls, events, spies

    func waitForReady(timeout: Duration) async throws {
        _ = try await wait(.ready, timeout: timeout, immediate: { $0.ready ? .nothing : nil })
    }

    /// Calls `name`; an "unknown name" reply names `target` (the spy a built-in spy call asks
    /// about), else `name`.
    func call(_ name: String, params: RawJSON, timeout: Duration, target: String? = nil) async throws -> RawJSON {
        let outcome = try await wait(.call(name: name, target: target ?? name), timeout: timeout, afterRegistering: { [self] id in
            let frame: [UInt8]
            do {
                frame = try BridgeFrame.encode(.call(id: id, name: name, params: params), maxFrameSize: maxFrameSize)
            } catch {
                fail(id, with: .unencodable(type: "call params", detail: String(describing: error)))
                return
            }
            let outcome = state.withLock { $0.connection }?.send(frame) ?? .closed
            if outcome == .dropped {
                fail(id, with: .connectionLost(reason: "the outgoing queue is full", during: "call '\(name)'", diagnostics: nil))
            }
            // `.closed`: the connection's close path fails every waiter, this one included.
        })
        guard case .json(let value) = outcome else { return .null }
        return value
    }

    func nextEvents(_ count: Int, named filter: String?, timeout: Duration) async throws -> [BridgeEvent] {
        let outcome = try await wait(.events(filter: filter, count: count), timeout: timeout, immediate: {
            $0.takeEvents(count, filter: filter).map { .events($0) }
        })
        guard case .events(let events) = outcome else { return [] }
        return events
    }

    func waitForRecord(spy name: String, index: Int, timeout: Duration) async throws -> RawJSON {
        let outcome = try await wait(.spy(name: name, index: index), timeout: timeout, immediate: {
            guard let values = $0.records[name], index < values.count else { return nil }
            return .json(values[index])
        })
        guard case .json(let value) = outcome else { return .null }
        return value
    }

    func subscribe() -> AsyncStream<BridgeEvent> {
        let (stream, continuation) = AsyncStream<BridgeEvent>.makeStream()
        let id = state.withLock { state -> UInt64? in
            for entry in state.eventLog.elements { continuation.yield(entry.event) }
            guard state.end == nil else { return nil }
            defer { state.nextSubscriberID += 1 }
            state.subscribers[state.nextSubscriberID] = continuation
            return state.nextSubscriberID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Removes the event waiters the log now satisfies, from inside `state.withLock`.
    private func satisfyEventWaiters(_ state: inout State) -> [(waiter: Waiter, outcome: Outcome)] {
        waiters.removeSatisfied { waiter -> Outcome? in
            guard case .events(let filter, let count) = waiter.condition else { return nil }
            return state.takeEvents(count, filter: filter).map { .events($0) }
        }
    }
}
