/// Why one step of a flow failed, before it is turned into a ``FlowFailure`` with the step's
/// position, its text and the screen.
struct FlowStepFailure: Error, CustomStringConvertible {
    /// One line: what went wrong (`the screen never showed it within 5s`).
    var problem: String
    /// More lines (a diff, the bytes received, the requests seen), or nil.
    var details: String?
    /// Whether the message ends with the framed screen.
    var showsScreen: Bool

    init(_ problem: String, details: String? = nil, showsScreen: Bool = true) {
        self.problem = problem
        self.details = details
        self.showsScreen = showsScreen
    }

    var description: String { details.map { "\(problem)\n\($0)" } ?? problem }
}

/// A flow that cannot run on this machine (its program is not installed): the attempt is
/// reported as skipped, not failed.
struct FlowSkip: Error {
    /// Why, for the progress line.
    var reason: String
}
