import Foundation
import HarnessSystem
import Synchronization

/// The state behind a `StubServer`: stubs, journal and waiters, guarded by one lock.
///
/// The event loop calls `answer(_:)` on its thread; tests call the rest from any thread or task.
final class StubServerCore: RequestHandling, @unchecked Sendable {
    struct Waiter {
        let pattern: RequestPattern
        let timeout: Duration
        let continuation: CheckedContinuation<RecordedRequest, Error>
    }

    struct State {
        var registry = StubRegistry()
        var journal: [RecordedRequest] = []
        var nextSequenceNumber = 1
        var waiters: [UInt64: Waiter] = [:]
        var cancelledWaiters: Set<UInt64> = []
        var nextWaiterID: UInt64 = 0
        var isStopped = false
        /// The stubs of the mapping file, restored by `POST /__admin/reset` (standalone server).
        var initialMappings: [StubMapping] = []
    }

    let state = Mutex(State())
    let options: StubServer.Options
    /// Set once by `StubServer.init` before the loop starts, never changed afterwards (so reads
    /// from any thread are safe). After stop, commands sent to the loop are ignored.
    var loop: EventLoop?

    init(options: StubServer.Options) {
        self.options = options
    }

    // MARK: - RequestHandling (event-loop thread)

    func answer(_ request: HTTPRequest) -> RequestAnswer {
        let incoming = RecordedRequest(
            method: request.head.method, target: request.head.target, headers: request.head.headers,
            body: Data(request.body), receivedAt: Date()
        )
        if options.enablesAdminAPI && (incoming.path == "/__admin" || incoming.path.hasPrefix("/__admin/")) {
            return RequestAnswer(behaviour: .respond(AdminAPI.respond(to: incoming, core: self)), stubID: nil, recorded: nil)
        }
        var resumed: [(CheckedContinuation<RecordedRequest, Error>, RecordedRequest)] = []
        let answer = state.withLock { state -> RequestAnswer in
            let match = state.registry.match(incoming)
            let recorded = incoming.answered(by: match?.0, sequenceNumber: state.nextSequenceNumber)
            state.nextSequenceNumber += 1
            state.journal.append(recorded)
            for (id, waiter) in state.waiters where waiter.pattern.matches(recorded) {
                resumed.append((waiter.continuation, recorded))
                state.waiters[id] = nil
            }
            if let (id, behaviour) = match {
                return RequestAnswer(behaviour: behaviour, stubID: id, recorded: recorded)
            }
            let report = state.registry.nearMissReport(for: recorded)
            return RequestAnswer(behaviour: .respond(.text(report.description + "\n", status: 404)), stubID: nil, recorded: recorded)
        }
        for (continuation, recorded) in resumed { continuation.resume(returning: recorded) }
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

    func addStub(id: StubID, pattern: RequestPattern, behaviour: StubBehaviour, priority: Int, uses: Int?) {
        let replaced = state.withLock { state -> Bool in
            let existed = state.registry.entries.contains { $0.id == id }
            state.registry.add(id: id, pattern: pattern, behaviour: behaviour, priority: priority, uses: uses)
            return existed
        }
        if replaced { loop?.submit(.releaseHangs([id])) }
    }

    func removeStub(_ id: StubID) -> Bool {
        let removed = state.withLock { $0.registry.remove(id) }
        if removed { loop?.submit(.releaseHangs([id])) }
        return removed
    }

    func removeAllStubs() {
        let ids = state.withLock { $0.registry.removeAll() }
        if !ids.isEmpty { loop?.submit(.releaseHangs(Set(ids))) }
    }

    func clearJournal() {
        state.withLock {
            $0.journal.removeAll()
            $0.nextSequenceNumber = 1
        }
    }

    // MARK: - Waiting

    func waitForRequest(matching pattern: RequestPattern, timeout: Duration) async throws -> RecordedRequest {
        let waiterID = state.withLock { state -> UInt64 in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<RecordedRequest, Error>) in
                let immediate = state.withLock { state -> Result<RecordedRequest, Error>? in
                    if let found = state.journal.first(where: pattern.matches) { return .success(found) }
                    if state.cancelledWaiters.remove(waiterID) != nil { return .failure(CancellationError()) }
                    if state.isStopped {
                        return .failure(WaitTimeoutError(pattern: pattern, timeout: timeout, received: state.journal, serverStopped: true))
                    }
                    state.waiters[waiterID] = Waiter(pattern: pattern, timeout: timeout, continuation: continuation)
                    return nil
                }
                if let immediate {
                    continuation.resume(with: immediate)
                    return
                }
                let nanoseconds = Int(min(timeout.clampedNanoseconds, UInt64(Int.max / 2)))
                DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [weak self] in
                    self?.finishWaiter(waiterID) { waiter, journal in
                        WaitTimeoutError(pattern: waiter.pattern, timeout: waiter.timeout, received: journal, serverStopped: false)
                    }
                }
            }
        } onCancel: {
            let found = finishWaiter(waiterID) { _, _ in CancellationError() }
            if !found { state.withLock { _ = $0.cancelledWaiters.insert(waiterID) } }
        }
    }

    /// Fails a waiter if it is still waiting; returns whether it was.
    @discardableResult
    private func finishWaiter(_ id: UInt64, error: (Waiter, [RecordedRequest]) -> Error) -> Bool {
        let removed = state.withLock { state -> (Waiter, [RecordedRequest])? in
            guard let waiter = state.waiters.removeValue(forKey: id) else { return nil }
            return (waiter, state.journal)
        }
        guard let (waiter, journal) = removed else { return false }
        waiter.continuation.resume(throwing: error(waiter, journal))
        return true
    }

    /// Marks the core stopped and fails every waiter.
    func failWaitersOnStop() {
        let waiters = state.withLock { state -> ([Waiter], [RecordedRequest]) in
            state.isStopped = true
            defer { state.waiters.removeAll() }
            return (Array(state.waiters.values), state.journal)
        }
        for waiter in waiters.0 {
            waiter.continuation.resume(throwing: WaitTimeoutError(
                pattern: waiter.pattern, timeout: waiter.timeout, received: waiters.1, serverStopped: true
            ))
        }
    }
}
