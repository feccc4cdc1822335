import Foundation
import HarnessWire
import HarnessSystem
import Synchronization

/// The test side's state of one bridge: the connection, the handshake, pending
/// calls and waits, the event log and the spy records. Every wait is a
/// continuation resumed by the event loop (a message read, a timeout timer), cancellation or
/// the end of the connection, whichever comes first, exactly once.
///
/// The state lives on the event loop the connection runs on (`state`, a ``LoopBound``): frames
/// arrive there, and tasks reach it by handing the loop a job (a wait's admission, a
/// subscription, the end). Synchronous readers (the app's name, the events and spy records so
/// far) read what the loop publishes as it receives them (`published`, written only there).
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

    /// What the connection, the loop's timers and the waits admitted there read and write: on
    /// the loop only.
    struct State {
        var connection: FrameConnection?
        var everConnected = false
        var authenticated = false
        var ready = false
        var end: EndCause?
        var exitStatus: String?
        var disconnectReason: String?
        /// The loop timer that gives the process watcher `exitGrace` after the connection dropped.
        var exitGraceTimer: EventLoop.Timer?
        /// The cursors of the event waits, absolute positions in the published event log.
        var eventCursors: [String: Int] = [:]
        var subscribers: [UInt64: AsyncStream<BridgeEvent>.Continuation] = [:]
    }

    /// What the loop publishes for synchronous readers as it receives it: written only on the
    /// loop, read anywhere (the loop's waits read the logs from here too, so each is kept once).
    struct Published {
        var helloApp = ""
        var helloPID = 0
        /// The events with the time each arrived (for the report's timeline), the newest up to
        /// the output limit; the event cursors are absolute positions in it.
        var eventLog: BoundedLog<(event: BridgeEvent, receivedAt: Date)>
        /// Every spy record with the time it arrived, in arrival order, for the report's timeline.
        var recordLog: [(spy: String, value: RawJSON, receivedAt: Date)] = []
        var records: [String: [RawJSON]] = [:]

        /// The `count` events matching `filter` from `cursor` on, and the position after them;
        /// nil if not enough yet.
        func events(_ count: Int, filter: String?, from cursor: Int) -> (events: [BridgeEvent], next: Int)? {
            // A cursor in the dropped part goes on from the oldest event kept.
            var index = eventLog.clamped(cursor)
            var found: [BridgeEvent] = []
            while let entry = eventLog[position: index], found.count < count {
                if filter == nil || entry.event.name == filter { found.append(entry.event) }
                index += 1
            }
            return found.count == count ? (found, index) : nil
        }
    }

    let token: String
    let maxFrameSize: Int
    /// The most bytes of events kept (``OutputLimit``).
    let eventLimit: Int
    let exitGrace: Duration
    let diagnostics: @Sendable () -> String?

    /// The bridge's state, on the event loop.
    let state: LoopBound<State>
    /// What synchronous readers see; only the loop writes it.
    let published: Locked<Published>
    /// The pending calls and waits, on the event loop.
    private let waiters = WaiterTable<WaitKind, Outcome>()
    private let nextSubscriberID = Atomic<UInt64>(1)

    init(token: String, maxFrameSize: Int, eventLimit: Int = OutputLimit.standard, exitGrace: Duration,
         diagnostics: @escaping @Sendable () -> String?) {
        self.token = token
        self.maxFrameSize = maxFrameSize
        self.eventLimit = eventLimit
        state = LoopBound(State(), on: .shared)
        published = Locked(Published(eventLog: BoundedLog(limit: eventLimit)))
        self.exitGrace = exitGrace
        self.diagnostics = diagnostics
        waiters.describeTimeouts(with: self) { $0.timeoutError($1.condition, timeout: $1.timeout ?? .zero) }
    }

    /// Whether the caller runs on the thread that reads the bridge (the event loop's).
    var isOnBridgeThread: Bool { EventLoop.shared.inLoop }

    var appName: String { published.withLock { $0.helloApp } }
    var appPID: Int { published.withLock { $0.helloPID } }
    /// The events kept (the newest, up to the output limit), in order.
    var receivedEvents: [BridgeEvent] { published.withLock { $0.eventLog.elements.map(\.event) } }
    /// The events kept with the time each arrived, in order.
    var timedEvents: [(event: BridgeEvent, receivedAt: Date)] { published.withLock { Array($0.eventLog.elements) } }
    /// How many older events were dropped by the output limit, and their bytes.
    var droppedEvents: (count: Int, bytes: Int) { published.withLock { ($0.eventLog.droppedCount, $0.eventLog.droppedBytes) } }
    /// Every spy record with the time it arrived, in arrival order.
    var timedRecords: [(spy: String, value: RawJSON, receivedAt: Date)] { published.withLock { $0.recordLog } }

    func recordCount(spy name: String) -> Int { published.withLock { $0.records[name]?.count ?? 0 } }
    func recordedValues(spy name: String) -> [RawJSON] { published.withLock { $0.records[name] ?? [] } }

    // MARK: - Connection life cycle

    /// Adopts the one accepted connection (before it starts reading), on the loop.
    func attach(_ connection: FrameConnection) -> Bool {
        state.withValue { state in
            guard state.end == nil, state.connection == nil else { return false }
            state.connection = connection
            state.everConnected = true
            return true
        }
    }

    /// Called on the event loop for each incoming message.
    func receive(_ message: BridgeMessage) {
        guard state.value.authenticated else {
            authenticate(message)
            return
        }
        switch message {
        case .ready:
            state.value.ready = true
            let resumed = waiters.removeAll { if case .ready = $0.condition { true } else { false } }
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
            // The weight: the value's JSON, the name, and the entry itself.
            _ = published.withLock { $0.eventLog.append((event, Date()), weight: value.data.count + name.utf8.count + 64) }
            for stream in state.value.subscribers.values { stream.yield(event) }
            for (waiter, outcome) in satisfyEventWaiters() { waiter.resume(returning: outcome) }
        case .record(let spy, _, let value):
            let values = published.withLock { published -> [RawJSON] in
                published.records[spy, default: []].append(value)
                published.recordLog.append((spy, value, Date()))
                return published.records[spy]!
            }
            let satisfied = waiters.removeSatisfied { waiter -> Outcome? in
                guard case .spy(let name, let index) = waiter.condition, name == spy, index < values.count else { return nil }
                return .json(values[index])
            }
            for (waiter, outcome) in satisfied { waiter.resume(returning: outcome) }
        case .goodbye(let reason):
            state.value.disconnectReason = "the app said goodbye: \(reason)"
        default:
            state.value.connection?.close(reason: "unexpected '\(message.typeName)' from the app")
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
        state.value.authenticated = true
        published.withLock { published in
            published.helloApp = app
            published.helloPID = pid
        }
        state.value.connection?.send(try! BridgeFrame.encode(.welcome(version: BridgeProtocol.version)))
    }

    private func refuse(code: BridgeErrorCode, reason: String, cause: EndCause) {
        // The cause is recorded before the app hears of it: a refused app exits at once, and
        // its exit must not be taken for the reason the bridge ended.
        finish(cause)
        let connection = state.value.connection
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

    /// Called once by the connection after it closed, on the loop.
    func connectionClosed(_ reason: FrameConnection.CloseReason) {
        switch reason {
        case .protocolError(let error):
            finish(.protocolError(error))
        case .local:
            break  // closed by us; `finish` was or will be called by whoever closed it
        case .peerClosed, .socketError:
            let status = state.withValue { state -> String? in
                if state.disconnectReason == nil { state.disconnectReason = reason.description }
                guard state.exitStatus == nil, state.end == nil, state.exitGraceTimer == nil else { return state.exitStatus }
                // The app probably died: give the process watcher `exitGrace` to report its status.
                state.exitGraceTimer = EventLoop.shared.schedule(after: exitGrace) { [weak self] in
                    guard let self else { return }
                    let reason = self.state.value.disconnectReason ?? reason.description
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
        let connected = state.value.everConnected || state.value.end != nil
        if !connected { finish(.noHost) }
    }

    /// The app process exited: every pending and future wait fails at once (on the loop, now
    /// when called there).
    func appExited(_ status: String) {
        EventLoop.shared.onLoop { [self] in
            if state.value.exitStatus == nil { state.value.exitStatus = status }
            state.value.connection?.close(reason: "the app exited")
            finish(.appExited(status))
        }
    }

    /// Ends the bridge with `cause` (first cause wins) and fails every waiter (on the loop, now
    /// when called there; a wait admitted after this sees `end` and fails at once).
    func finish(_ cause: EndCause) {
        EventLoop.shared.onLoop { [self] in
            let (streams, connection, graceTimer) = state.withValue { state in
                if state.end == nil { state.end = cause }
                let streams = Array(state.subscribers.values)
                state.subscribers.removeAll()
                defer { state.exitGraceTimer = nil }
                return (streams, state.connection, state.exitGraceTimer)
            }
            if let graceTimer { EventLoop.shared.cancel(graceTimer) }
            if case .closed = cause { connection?.close(reason: "the test closed the bridge") }
            for stream in streams { stream.finish() }
            failPendingWaiters()
        }
    }

    /// Fails every pending wait with the end's cause (on the loop).
    private func failPendingWaiters() {
        let pending = waiters.removeAll()
        guard !pending.isEmpty, let endCause = state.value.end else { return }
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
    ///   - immediate: runs on the loop; returns the outcome if it is already there.
    ///   - afterRegistering: runs on the loop once the waiter is registered (sends a call).
    func wait(
        _ kind: WaitKind,
        timeout: Duration,
        immediate: (@Sendable (inout State) -> Outcome?)? = nil,
        afterRegistering: (@Sendable (UInt64) -> Void)? = nil
    ) async throws -> Outcome {
        try await waiters.wait(description: Self.describe(kind), timeout: timeout, admit: { [self] registration in
            enum Decision { case registered, done(Outcome), failed(EndCause) }
            let decision = state.withValue { state -> Decision in
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
            return state.value.everConnected
                ? .notReady(timeout: timeout, diagnostics: text) : .neverConnected(timeout: timeout, diagnostics: text)
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
            let outcome = state.value.connection?.send(frame) ?? .closed
            if outcome == .dropped {
                fail(id, with: .connectionLost(reason: "the outgoing queue is full", during: "call '\(name)'", diagnostics: nil))
            }
            // `.closed`: the connection's close path fails every waiter, this one included.
        })
        guard case .json(let value) = outcome else { return .null }
        return value
    }

    func nextEvents(_ count: Int, named filter: String?, timeout: Duration) async throws -> [BridgeEvent] {
        let outcome = try await wait(.events(filter: filter, count: count), timeout: timeout, immediate: { [self] in
            takeEvents(count, filter: filter, cursors: &$0.eventCursors).map { .events($0) }
        })
        guard case .events(let events) = outcome else { return [] }
        return events
    }

    func waitForRecord(spy name: String, index: Int, timeout: Duration) async throws -> RawJSON {
        let outcome = try await wait(.spy(name: name, index: index), timeout: timeout, immediate: { [self] _ in
            let values = recordedValues(spy: name)
            return index < values.count ? .json(values[index]) : nil
        })
        guard case .json(let value) = outcome else { return .null }
        return value
    }

    /// The events so far, then each one as it arrives, until the bridge ends. The stream is
    /// registered on the loop (after the jobs handed to it before), so it misses no event and
    /// repeats none.
    func subscribe() -> AsyncStream<BridgeEvent> {
        let (stream, continuation) = AsyncStream<BridgeEvent>.makeStream()
        let id = nextSubscriberID.wrappingAdd(1, ordering: .relaxed).oldValue
        continuation.onTermination = { [weak self] _ in
            EventLoop.shared.execute { [weak self] in _ = self?.state.value.subscribers.removeValue(forKey: id) }
        }
        EventLoop.shared.onLoop { [self] in
            for event in receivedEvents { continuation.yield(event) }
            guard state.value.end == nil else { return continuation.finish() }
            state.value.subscribers[id] = continuation
        }
        return stream
    }

    /// Takes `count` events matching `filter` after that filter's cursor, advancing it; nil if
    /// not enough yet. On the loop.
    private func takeEvents(_ count: Int, filter: String?, cursors: inout [String: Int]) -> [BridgeEvent]? {
        let key = filter ?? "*"
        let cursor = cursors[key] ?? 0
        guard let (events, next) = published.withLock({ $0.events(count, filter: filter, from: cursor) }) else { return nil }
        cursors[key] = next
        return events
    }

    /// Removes the event waiters the log now satisfies (on the loop).
    private func satisfyEventWaiters() -> [(waiter: Waiter, outcome: Outcome)] {
        state.withValue { state in
            waiters.removeSatisfied { waiter -> Outcome? in
                guard case .events(let filter, let count) = waiter.condition else { return nil }
                return takeEvents(count, filter: filter, cursors: &state.eventCursors).map { .events($0) }
            }
        }
    }
}
