/// A registered stub as `StubServer.stubs` lists it.
public struct StubSummary: Sendable, Hashable, CustomStringConvertible {
    /// Its id.
    public let id: StubID
    /// What it matches.
    public let pattern: RequestPattern
    /// What it does.
    public let behaviour: StubBehaviour
    /// Its priority (lower wins).
    public let priority: Int
    /// Uses left (nil: unlimited).
    public let remainingUses: Int?
    /// How many requests it answered.
    public let matchCount: Int

    /// `stub ID: GET /todos -> respond 200 (priority 5, 2 matches)`.
    public var description: String {
        let uses = remainingUses.map { ", \($0) uses left" } ?? ""
        return "stub \(id): \(pattern) -> \(behaviour) (priority \(priority), \(matchCount) matches\(uses))"
    }
}
