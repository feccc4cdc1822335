import Foundation
import HarnessSystem

/// The state behind a `StubServer`: stubs, journal and waiters.
///
/// The connection driver calls `answer(_:)` and `answerAgain(_:)` on the event loop; tests call
/// the rest from any thread or task. The state is one lock's; `waitForRequest` calls wait in
/// the package's `WaiterTable`, which lives on the loop.
final class StubServerCore: RequestHandling, Sendable {
    struct State {
        var registry = StubRegistry()
        var journal: [RecordedRequest] = []
        var nextSequenceNumber = 1
        var isStopped = false
        /// The stubs of the mapping file, restored by `POST /__admin/reset` (standalone server).
        var initialMappings: [StubMapping] = []
        /// Re-matches the requests hanging on removed or replaced stubs (the server's
        /// connection driver); called outside the lock.
        var releaseHangs: (@Sendable (Set<StubID>) -> Void)?
    }

    let state = Locked(State())
    let options: StubServer.Options
    /// The pending `waitForRequest` calls, each with the pattern it waits for.
    private let waiters = WaiterTable<RequestPattern, RecordedRequest>()

    init(options: StubServer.Options) {
        self.options = options
        waiters.describeTimeouts(with: self) { core, waiter in
            WaitTimeoutError(
                pattern: waiter.condition, timeout: waiter.timeout ?? .zero,
                received: core.state.withLock { $0.journal }, serverStopped: false)
        }
    }

    /// Sets who re-matches the requests hanging on removed stubs (once, before serving).
    func whenStubsRemoved(_ release: @escaping @Sendable (Set<StubID>) -> Void) {
        state.withLock { $0.releaseHangs = release }
    }

    // MARK: - RequestHandling (event loop)

    func answer(_ request: HTTPRequest) -> RequestAnswer {
        let incoming = RecordedRequest(
            method: request.head.method, target: request.head.target, headers: request.head.headers,
            body: Data(request.body), receivedAt: Date()
        )
        if options.enablesAdminAPI && (incoming.path == "/__admin" || incoming.path.hasPrefix("/__admin/")) {
            return RequestAnswer(behaviour: .respond(AdminAPI.respond(to: incoming, core: self)), stubID: nil, recorded: nil)
        }
        let (answer, satisfied) = state.withLock { state -> (RequestAnswer, [WaiterTable<RequestPattern, RecordedRequest>.Waiter]) in
            let match = state.registry.match(incoming)
            let recorded = incoming.answered(by: match?.0, sequenceNumber: state.nextSequenceNumber)
            state.nextSequenceNumber += 1
            state.journal.append(recorded)
            let satisfied = waiters.removeAll { $0.condition.matches(recorded) }
            if let (id, behaviour) = match {
                return (RequestAnswer(behaviour: behaviour, stubID: id, recorded: recorded), satisfied)
            }
            let report = state.registry.nearMissReport(for: recorded)
            let answer = RequestAnswer(
                behaviour: .respond(.text(report.description + "\n", status: 404)), stubID: nil, recorded: recorded)
            return (answer, satisfied)
        }
        if let recorded = answer.recorded {
            for waiter in satisfied { waiter.resume(returning: recorded) }
        }
        return answer
    }

    func answerAgain(_ recorded: RecordedRequest) -> RequestAnswer {
        state.withLock { state -> RequestAnswer in
            let match = state.registry.match(recorded)
            let updated = recorded.answered(by: match?.0, sequenceNumber: recorded.sequenceNumber)
            if let index = state.journal.firstIndex(where: { $0.sequenceNumber == recorded.sequenceNumber }) {
                state.journal[index] = updated
            }
            if let (id, behaviour) = match {
                return RequestAnswer(behaviour: behaviour, stubID: id, recorded: updated)
            }
            let report = state.registry.nearMissReport(for: updated)
            return RequestAnswer(behaviour: .respond(.text(report.description + "\n", status: 404)), stubID: nil, recorded: updated)
        }
    }

    // MARK: - Stubs

    /// Each registered stub's route (`GET /todos`), for messages that name a stub.
    var stubRoutes: [StubID: String] {
        state.withLock { state in
            Dictionary(state.registry.entries.map { ($0.id, "\($0.pattern)") }, uniquingKeysWith: { first, _ in first })
        }
    }

    func addStub(id: StubID, pattern: RequestPattern, behaviour: StubBehaviour, priority: Int, uses: Int?) {
        let replaced = state.withLock { state -> Bool in
            let existed = state.registry.entries.contains { $0.id == id }
            state.registry.add(id: id, pattern: pattern, behaviour: behaviour, priority: priority, uses: uses)
            return existed
        }
        if replaced { releaseHangs([id]) }
    }

    func removeStub(_ id: StubID) -> Bool {
        let removed = state.withLock { $0.registry.remove(id) }
        if removed { releaseHangs([id]) }
        return removed
    }

    func removeAllStubs() {
        let ids = state.withLock { $0.registry.removeAll() }
        if !ids.isEmpty { releaseHangs(Set(ids)) }
    }

    func clearJournal() {
        state.withLock {
            $0.journal.removeAll()
            $0.nextSequenceNumber = 1
        }
    }

    private func releaseHangs(_ ids: Set<StubID>) {
        state.withLock { $0.releaseHangs }?(ids)
    }

    // MARK: - Waiting

    /// - Parameter afterInserting: called once the wait is in the table (it did not find its
    ///   request journaled), for tests that must act while it is pending.
    func waitForRequest(
        matching pattern: RequestPattern, timeout: Duration, afterInserting: (@Sendable () -> Void)? = nil
    ) async throws -> RecordedRequest {
        try await waiters.wait(description: "a request matching \(pattern)", timeout: timeout) { [self] registration in
            let outcome = state.withLock { state -> Result<RecordedRequest, any Error>? in
                if let found = state.journal.first(where: pattern.matches) { return .success(found) }
                if state.isStopped {
                    return .failure(WaitTimeoutError(pattern: pattern, timeout: timeout, received: state.journal, serverStopped: true))
                }
                // Under the lock: a request journaled from now on finds the waiter.
                waiters.insert(registration, pattern)
                return nil
            }
            if let outcome { registration.resume(with: outcome) }
        } afterInserting: { _ in
            afterInserting?()
        }
    }

    /// Marks the core stopped and fails every waiter (on the loop, where they live; a wait
    /// admitted afterwards sees the server stopped).
    func failWaitersOnStop() {
        state.withLock { state in
            state.isStopped = true
            state.releaseHangs = nil
        }
        EventLoop.shared.onLoop { [self] in failStoppedWaiters() }
    }

    private func failStoppedWaiters() {
        let stopped = waiters.removeAll()
        let journal = state.withLock { $0.journal }
        waiters.close()
        for waiter in stopped {
            waiter.resume(throwing: WaitTimeoutError(
                pattern: waiter.condition, timeout: waiter.timeout ?? .zero, received: journal, serverStopped: true
            ))
        }
    }
}
