/// A stub that came close to matching a request, and how it differs.
public struct NearMiss: Sendable, Hashable, CustomStringConvertible {
    /// The stub.
    public let stubID: StubID
    /// Its pattern.
    public let pattern: RequestPattern
    /// Every condition the request failed (empty when the stub matched but was used up).
    public let differences: [MatchDifference]
    /// Whether the stub matched but had no uses left.
    public let isUsedUp: Bool
    let distance: Double

    /// One line per difference.
    public var description: String {
        var lines = [stubID.isGenerated ? "stub \(pattern)" : "stub \(stubID): \(pattern)"]
        if isUsedUp { lines.append("    matches, but its uses are used up") }
        lines += differences.map { "    ✗ \($0)" }
        return lines.joined(separator: "\n")
    }
}

/// Why no stub answered a request: the request and the closest stubs, WireMock style.
public struct NearMissReport: Sendable, Hashable, CustomStringConvertible {
    /// The unmatched request.
    public let request: RecordedRequest
    /// The closest stubs, closest first (at most 3).
    public let nearMisses: [NearMiss]

    /// Ranks `stubs` by distance to `request`.
    init(request: RecordedRequest, stubs: [(id: StubID, pattern: RequestPattern, usedUp: Bool)], limit: Int = 3) {
        self.request = request
        self.nearMisses = stubs.map { stub in
            NearMiss(
                stubID: stub.id, pattern: stub.pattern, differences: stub.pattern.differences(from: request),
                isUsedUp: stub.usedUp, distance: stub.pattern.distance(to: request)
            )
        }
        .sorted { $0.distance < $1.distance }
        .prefix(limit)
        .map { $0 }
    }

    /// The text sent as the 404 body.
    public var description: String {
        var lines = ["No stub matched this request.", "", "Request:", "  \(request.method) \(request.target)"]
        for field in request.headers { lines.append("  \(field.name): \(field.value)") }
        if !request.body.isEmpty { lines.append("  body: \(BodyPattern.quote(request.body))") }
        lines.append("")
        if nearMisses.isEmpty {
            lines.append("No stubs are registered.")
        } else {
            lines.append("Closest stubs:")
            for (index, nearMiss) in nearMisses.enumerated() {
                lines.append("  \(index + 1). \(nearMiss.description.replacingOccurrences(of: "\n", with: "\n  "))")
            }
        }
        return lines.joined(separator: "\n")
    }
}
