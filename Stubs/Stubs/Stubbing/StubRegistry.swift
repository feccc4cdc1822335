/// The registered stubs and how requests pick one. A value type guarded by the server's lock.
///
/// Selection: among the stubs whose pattern matches and that have uses left, the lowest `priority`
/// number wins (1 beats 5, as in WireMock); among equal priorities the stub added last wins.
struct StubRegistry {
    /// One registered stub.
    struct Entry {
        let id: StubID
        let pattern: RequestPattern
        let behaviour: StubBehaviour
        let priority: Int
        /// nil means unlimited; 0 means used up (kept so `remove` can still release its hangs).
        var remainingUses: Int?
        let order: Int
        var matchCount = 0

        var isUsedUp: Bool { remainingUses == 0 }
    }

    private(set) var entries: [Entry] = []
    private var nextOrder = 0

    /// Adds a stub; an existing stub with the same id is replaced.
    mutating func add(id: StubID, pattern: RequestPattern, behaviour: StubBehaviour, priority: Int, uses: Int?) {
        entries.removeAll { $0.id == id }
        nextOrder += 1
        entries.append(Entry(
            id: id, pattern: pattern, behaviour: behaviour, priority: priority,
            remainingUses: uses.map { max(0, $0) }, order: nextOrder
        ))
    }

    /// Removes a stub; false when it was not registered.
    mutating func remove(_ id: StubID) -> Bool {
        let before = entries.count
        entries.removeAll { $0.id == id }
        return entries.count != before
    }

    /// Removes every stub and returns their ids.
    mutating func removeAll() -> [StubID] {
        defer { entries.removeAll() }
        return entries.map(\.id)
    }

    /// Picks the stub for `request`, consumes one use, and returns its id and the behaviour for this match.
    /// A HEAD request no stub matches is matched as a GET (the server then sends headers only).
    mutating func match(_ request: RecordedRequest) -> (StubID, StubBehaviour)? {
        if let found = matchExactly(request) { return found }
        guard request.method.caseInsensitiveEquals("HEAD") else { return nil }
        return matchExactly(RecordedRequest(
            sequenceNumber: request.sequenceNumber, method: "GET", target: request.target, headers: request.headers,
            body: request.body, receivedAt: request.receivedAt
        ))
    }

    private mutating func matchExactly(_ request: RecordedRequest) -> (StubID, StubBehaviour)? {
        var bestIndex: Int?
        for (index, entry) in entries.enumerated() where !entry.isUsedUp && entry.pattern.matches(request) {
            if let current = bestIndex {
                let best = entries[current]
                if entry.priority < best.priority || (entry.priority == best.priority && entry.order > best.order) {
                    bestIndex = index
                }
            } else {
                bestIndex = index
            }
        }
        guard let index = bestIndex else { return nil }
        let behaviour = entries[index].behaviour.resolved(forMatch: entries[index].matchCount)
        entries[index].matchCount += 1
        if let remaining = entries[index].remainingUses { entries[index].remainingUses = remaining - 1 }
        return (entries[index].id, behaviour)
    }

    /// Why no stub matched `request`.
    func nearMissReport(for request: RecordedRequest) -> NearMissReport {
        NearMissReport(request: request, stubs: entries.map { ($0.id, $0.pattern, $0.isUsedUp) })
    }
}
