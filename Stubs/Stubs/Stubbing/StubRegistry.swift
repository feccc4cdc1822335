/// The registered stubs as callers defined them, and how a request picks one. A value: callers
/// change it (in the server's `published` slot) and the event loop reads it when it matches.
///
/// How many times each stub matched is not here but the loop's: a count per stub's `order`, a
/// number each definition gets when it is added (a stub replaced under the same id is a new
/// definition, counted from 0).
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
        /// How many requests it may answer; nil means unlimited.
        let uses: Int?
        /// Its number, in the order the stubs were added: the key of its match count.
        let order: Int

        /// The uses left after `matches` matches (nil: unlimited; 0: used up, kept so that
        /// `remove` can still release its hangs).
        func remainingUses(after matches: Int) -> Int? { uses.map { max(0, $0 - matches) } }
    }

    private(set) var entries: [Entry] = []
    private var nextOrder = 0

    /// Adds a stub; an existing stub with the same id is replaced (returned).
    @discardableResult
    mutating func add(id: StubID, pattern: RequestPattern, behaviour: StubBehaviour, priority: Int, uses: Int?) -> Entry? {
        let replaced = remove(id)
        nextOrder += 1
        entries.append(Entry(id: id, pattern: pattern, behaviour: behaviour, priority: priority, uses: uses, order: nextOrder))
        return replaced
    }

    /// Removes a stub and returns it; nil when it was not registered.
    mutating func remove(_ id: StubID) -> Entry? {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return nil }
        return entries.remove(at: index)
    }

    /// Removes every stub and returns them.
    mutating func removeAll() -> [Entry] {
        defer { entries.removeAll() }
        return entries
    }

    /// The stub that answers `request` when each has matched `matchCounts[order]` times (0 when
    /// absent). A HEAD request no stub matches is matched as a GET (the server then sends headers
    /// only).
    func match(_ request: RecordedRequest, matchCounts: [Int: Int]) -> Entry? {
        if let found = matchExactly(request, matchCounts: matchCounts) { return found }
        guard request.method.caseInsensitiveEquals("HEAD") else { return nil }
        return matchExactly(RecordedRequest(
            sequenceNumber: request.sequenceNumber, method: "GET", target: request.target, headers: request.headers,
            body: request.body, receivedAt: request.receivedAt
        ), matchCounts: matchCounts)
    }

    private func matchExactly(_ request: RecordedRequest, matchCounts: [Int: Int]) -> Entry? {
        var best: Entry?
        for entry in entries where entry.remainingUses(after: matchCounts[entry.order] ?? 0) != 0 && entry.pattern.matches(request) {
            if let current = best, entry.priority > current.priority || (entry.priority == current.priority && entry.order < current.order) {
                continue
            }
            best = entry
        }
        return best
    }

    /// Why no stub matched `request`.
    func nearMissReport(for request: RecordedRequest, matchCounts: [Int: Int]) -> NearMissReport {
        NearMissReport(request: request, stubs: entries.map {
            ($0.id, $0.pattern, $0.remainingUses(after: matchCounts[$0.order] ?? 0) == 0)
        })
    }

    /// The stubs as `StubServer.stubs` and the admin API list them, in the order they were added.
    func summaries(matchCounts: [Int: Int]) -> [StubSummary] {
        entries.map { entry in
            let matches = matchCounts[entry.order] ?? 0
            return StubSummary(
                id: entry.id, pattern: entry.pattern, behaviour: entry.behaviour, priority: entry.priority,
                remainingUses: entry.remainingUses(after: matches), matchCount: matches)
        }
    }
}
