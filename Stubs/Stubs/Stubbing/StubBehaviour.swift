import Foundation

/// What a stub does with a matched request: respond, or misbehave like a real network.
///
/// ```swift
/// server.stub(.get("/todos"), .hang)                                 // "Loading…" until removed
/// server.stub(.get("/todos"), .sequence([.status(500), try .json(todos)]))  // fail once, then succeed
/// server.stub(.get("/todos"), .delayed(.seconds(1), .closeConnection))
/// ```
public struct StubBehaviour: Sendable, Hashable, CustomStringConvertible {
    indirect enum Kind: Sendable, Hashable {
        case respond(StubResponse)
        case hang
        case closeConnection
        case reset
        case garbage(Data)
        case delayed(Duration, StubBehaviour)
        case sequence([StubBehaviour])
    }

    let kind: Kind

    /// Sends `response`.
    public static func respond(_ response: StubResponse) -> StubBehaviour { StubBehaviour(kind: .respond(response)) }

    /// Accepts the request and never answers, keeping the connection open, until the stub is removed
    /// (the request is then matched again against the remaining stubs) or the server stops.
    public static var hang: StubBehaviour { StubBehaviour(kind: .hang) }

    /// Closes the connection without answering (a clean FIN).
    public static var closeConnection: StubBehaviour { StubBehaviour(kind: .closeConnection) }

    /// Resets the connection (SO_LINGER 0, then close: the client sees ECONNRESET).
    public static var reset: StubBehaviour { StubBehaviour(kind: .reset) }

    /// Sends bytes that are not HTTP, then closes.
    public static var garbage: StubBehaviour { StubBehaviour(kind: .garbage(defaultGarbage)) }

    /// Sends these bytes instead of an HTTP response, then closes.
    public static func garbage(_ bytes: Data) -> StubBehaviour { StubBehaviour(kind: .garbage(bytes)) }

    /// Waits `delay`, then behaves as `behaviour`.
    public static func delayed(_ delay: Duration, _ behaviour: StubBehaviour) -> StubBehaviour {
        StubBehaviour(kind: .delayed(delay, behaviour))
    }

    /// Behaves as each element in turn, one per matched request, then repeats the last one.
    public static func sequence(_ behaviours: [StubBehaviour]) -> StubBehaviour {
        StubBehaviour(kind: .sequence(behaviours.isEmpty ? [.respond(.status(200))] : behaviours))
    }

    /// Sends each response in turn, one per matched request, then repeats the last one.
    public static func sequence(_ responses: [StubResponse]) -> StubBehaviour {
        sequence(responses.map(respond))
    }

    /// Bytes that no HTTP client can parse.
    static let defaultGarbage = Data("\u{1}\u{2}\u{3}NOT-HTTP garbage \u{FF}\u{FE}\r\n\r\n".utf8)

    /// `respond 200`, `hang`, `sequence[respond 500, respond 200]`, ...
    public var description: String {
        switch kind {
        case .respond(let response): return "respond \(response.status)"
        case .hang: return "hang"
        case .closeConnection: return "close connection"
        case .reset: return "reset connection"
        case .garbage(let data): return "garbage (\(data.count) bytes)"
        case .delayed(let delay, let behaviour): return "after \(delay): \(behaviour)"
        case .sequence(let behaviours): return "sequence[" + behaviours.map(\.description).joined(separator: ", ") + "]"
        }
    }

    /// The behaviour for the `index`th match (0-based): sequences pick their element, repeating the last.
    func resolved(forMatch index: Int) -> StubBehaviour {
        switch kind {
        case .sequence(let behaviours):
            return behaviours[min(index, behaviours.count - 1)].resolved(forMatch: 0)
        case .delayed(let delay, let behaviour):
            return .delayed(delay, behaviour.resolved(forMatch: index))
        default:
            return self
        }
    }
}
