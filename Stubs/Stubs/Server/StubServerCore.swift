import Foundation
import HarnessSystem

/// The state behind a `StubServer`: stubs, journal and waiters.
///
/// The connection driver calls `answer(_:)` and `answerAgain(_:)` on the event loop
/// (`EventLoop.shared`); tests call the rest from any thread or task. Two places:
/// - `state` (a ``LoopBound``): what only the loop touches, the match count of each stub (by its
///   order number), whether the server stopped, who releases hangs; and `waiters`, the pending
///   `waitForRequest` calls (a `WaiterTable`, loop-bound too). Tasks reach them by handing the
///   loop a job (a wait's admission, the stop).
/// - `published`: the stub definitions, which callers write (`stub`, `remove`, `reset`) and the
///   loop reads each time it matches, so a request that arrives after `stub(...)` returned is
///   matched against that stub; and what the loop publishes for synchronous readers (`requests`,
///   `verify`, `stubs`): each request journaled, and the match counts, stored before the answer
///   goes out. Callers only empty the journal (`clearRequests`, `reset`).
///
/// No body of the lock takes another lock or resumes a waiter.
final class StubServerCore: RequestHandling, Sendable {
    /// What only the loop touches.
    struct State {
        /// How many requests each stub answered, by its order number (``StubRegistry/Entry/order``).
        var matchCounts: [Int: Int] = [:]
        var isStopped = false
        /// Re-matches the requests hanging on removed or replaced stubs (the server's connection
        /// driver).
        var releaseHangs: (@Sendable (Set<StubID>) -> Void)?
    }

    /// What callers and the loop share: the definitions (written by callers), the journal and
    /// the match counts (written by the loop; the journal emptied by callers).
    struct Published {
        var registry = StubRegistry()
        /// The requests since start or the last clear, oldest first; a request's sequence
        /// number is its place here counted from 1.
        var journal: [RecordedRequest] = []
        /// The loop's match counts, as of the last request it answered.
        var matchCounts: [Int: Int] = [:]
        /// The stubs of the mapping file, restored by `POST /__admin/reset` (standalone server).
        var initialMappings: [StubMapping] = []
    }

    /// The server's state on the event loop.
    let state = LoopBound(State(), on: .shared)
    /// What synchronous readers see and callers define.
    let published = Locked(Published())
    let options: StubServer.Options
    /// The pending `waitForRequest` calls, each with the pattern it waits for (on the loop).
    private let waiters = WaiterTable<RequestPattern, RecordedRequest>()

    init(options: StubServer.Options) {
        self.options = options
        waiters.describeTimeouts(with: self) { core, waiter in
            WaitTimeoutError(
                pattern: waiter.condition, timeout: waiter.timeout ?? .zero, received: core.journal, serverStopped: false)
        }
    }

    /// Sets who re-matches the requests hanging on removed stubs (once, before serving: the
    /// loop runs this before it serves the first connection).
    func whenStubsRemoved(_ release: @escaping @Sendable (Set<StubID>) -> Void) {
        EventLoop.shared.execute { [self] in state.value.releaseHangs = release }
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
        let (entry, behaviour, matches) = match(incoming)
        let recorded = published.withLock { published -> RecordedRequest in
            let recorded = incoming.answered(by: entry?.id, sequenceNumber: published.journal.count + 1)
            published.journal.append(recorded)
            if let entry { published.matchCounts[entry.order] = matches }
            return recorded
        }
        for waiter in waiters.removeAll(where: { $0.condition.matches(recorded) }) { waiter.resume(returning: recorded) }
        return RequestAnswer(behaviour: behaviour ?? notFound(recorded), stubID: entry?.id, recorded: recorded)
    }

    func answerAgain(_ recorded: RecordedRequest) -> RequestAnswer {
        let (entry, behaviour, matches) = match(recorded)
        let updated = recorded.answered(by: entry?.id, sequenceNumber: recorded.sequenceNumber)
        published.withLock { published in
            // Unless the journal was cleared since: a later request may have its number.
            if let index = published.journal.firstIndex(where: { $0.sequenceNumber == recorded.sequenceNumber }),
               published.journal[index] == recorded {
                published.journal[index] = updated
            }
            if let entry { published.matchCounts[entry.order] = matches }
        }
        return RequestAnswer(behaviour: behaviour ?? notFound(updated), stubID: entry?.id, recorded: updated)
    }

    /// Picks the stub for `request` against the definitions as they are now and counts the
    /// match, on the loop: the stub, its behaviour for this match and its matches since added
    /// (this one included); no stub and no behaviour when none matches.
    private func match(_ request: RecordedRequest) -> (StubRegistry.Entry?, StubBehaviour?, Int) {
        let registry = published.withLock { $0.registry }
        return state.withValue { state in
            guard let entry = registry.match(request, matchCounts: state.matchCounts) else { return (nil, nil, 0) }
            let before = state.matchCounts[entry.order] ?? 0
            state.matchCounts[entry.order] = before + 1
            return (entry, entry.behaviour.resolved(forMatch: before), before + 1)
        }
    }

    /// The 404 whose body says why no stub matched (on the loop).
    private func notFound(_ recorded: RecordedRequest) -> StubBehaviour {
        .respond(.text(nearMissReport(for: recorded).description + "\n", status: 404))
    }

    // MARK: - Synchronous readers

    /// The journal as the loop published it.
    var journal: [RecordedRequest] { published.withLock { $0.journal } }

    /// The registered stubs with their matches so far, in the order they were added.
    var summaries: [StubSummary] { published.withLock { $0.registry.summaries(matchCounts: $0.matchCounts) } }

    /// The near-miss report for `request` against the current stubs.
    func nearMissReport(for request: RecordedRequest) -> NearMissReport {
        published.withLock { $0.registry.nearMissReport(for: request, matchCounts: $0.matchCounts) }
    }

    /// Each registered stub's route (`GET /todos`), for messages that name a stub.
    var stubRoutes: [StubID: String] {
        published.withLock { published in
            Dictionary(published.registry.entries.map { ($0.id, "\($0.pattern)") }, uniquingKeysWith: { first, _ in first })
        }
    }

    // MARK: - Stubs

    func addStub(id: StubID, pattern: RequestPattern, behaviour: StubBehaviour, priority: Int, uses: Int?) {
        let replaced = published.withLock {
            $0.registry.add(id: id, pattern: pattern, behaviour: behaviour, priority: priority, uses: uses)
        }
        forget(replaced.map { [$0] } ?? [])
    }

    func removeStub(_ id: StubID) -> Bool {
        let removed = published.withLock { $0.registry.remove(id) }
        forget(removed.map { [$0] } ?? [])
        return removed != nil
    }

    func removeAllStubs() {
        forget(published.withLock { $0.registry.removeAll() })
    }

    func clearJournal() {
        published.withLock { $0.journal.removeAll() }
    }

    /// Sets the stubs `POST /__admin/reset` restores.
    func setInitialMappings(_ mappings: [StubMapping]) {
        published.withLock { $0.initialMappings = mappings }
    }

    /// The stubs `POST /__admin/reset` restores.
    var initialMappings: [StubMapping] { published.withLock { $0.initialMappings } }

    /// Drops the match counts of removed or replaced stubs and matches again the requests
    /// hanging on them, on the loop (after the current handler when called there).
    private func forget(_ removed: [StubRegistry.Entry]) {
        guard !removed.isEmpty else { return }
        EventLoop.shared.execute { [self] in
            for entry in removed { state.value.matchCounts[entry.order] = nil }
            published.withLock { published in
                for entry in removed { published.matchCounts[entry.order] = nil }
            }
            state.value.releaseHangs?(Set(removed.map(\.id)))
        }
    }

    // MARK: - Waiting

    /// - Parameter afterInserting: called once the wait is in the table (it did not find its
    ///   request journaled), for tests that must act while it is pending.
    func waitForRequest(
        matching pattern: RequestPattern, timeout: Duration, afterInserting: (@Sendable () -> Void)? = nil
    ) async throws -> RecordedRequest {
        try await waiters.wait(description: "a request matching \(pattern)", timeout: timeout) { [self] registration in
            // On the loop: a request journaled from now on finds the waiter.
            let journal = journal
            if let found = journal.first(where: pattern.matches) { return registration.resume(returning: found) }
            if state.value.isStopped {
                return registration.resume(throwing: WaitTimeoutError(
                    pattern: pattern, timeout: timeout, received: journal, serverStopped: true))
            }
            waiters.insert(registration, pattern)
        } afterInserting: { _ in
            afterInserting?()
        }
    }

    /// Marks the core stopped and fails every waiter, on the loop, where they live (a wait
    /// admitted afterwards sees the server stopped).
    func failWaitersOnStop() {
        EventLoop.shared.onLoop { [self] in
            state.value.isStopped = true
            state.value.releaseHangs = nil
            let stopped = waiters.removeAll()
            waiters.close()
            let journal = journal
            for waiter in stopped {
                waiter.resume(throwing: WaitTimeoutError(
                    pattern: waiter.condition, timeout: waiter.timeout ?? .zero, received: journal, serverStopped: true
                ))
            }
        }
    }
}
