import Foundation

extension StubBehaviour {
    /// What the stub answers its `use`-th request (0-based), for reports: the status (`"500"`),
    /// or `"hang"`, `"closed"`, `"reset"`, `"garbage"`; and the delay before it, when any. A
    /// sequence's last answer repeats.
    public func answer(forUse use: Int) -> (status: String, delay: Duration?) {
        Self.answer(kind, use: use)
    }

    private static func answer(_ kind: Kind, use: Int) -> (status: String, delay: Duration?) {
        switch kind {
        case .respond(let response): (String(response.status), response.delay)
        case .hang: ("hang", nil)
        case .closeConnection: ("closed", nil)
        case .reset: ("reset", nil)
        case .garbage: ("garbage", nil)
        case .delayed(let delay, let inner):
            { (answer: (status: String, delay: Duration?)) in (answer.status, delay + (answer.delay ?? .zero)) }(
                answer(inner.kind, use: use))
        case .sequence(let steps):
            steps.isEmpty ? ("?", nil) : answer(steps[min(use, steps.count - 1)].kind, use: 0)
        }
    }
}
