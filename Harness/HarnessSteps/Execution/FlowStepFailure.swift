/// Why one step of a flow failed, before it is turned into a ``FlowFailure`` with the step's
/// position, its text and the screen.
package struct FlowStepFailure: Error, CustomStringConvertible {
    /// One line: what went wrong (`the screen never showed it within 5s`).
    package var problem: String
    /// More lines (a diff, the bytes received, the requests seen), or nil.
    package var details: String?
    /// Whether the message ends with the framed screen.
    package var showsScreen: Bool
    /// The framed screen a wait that timed out last checked: the message shows it rather than
    /// the screen at the time the failure is written (and that one second, when it is newer).
    package var checkedScreen: String?

    package init(_ problem: String, details: String? = nil, showsScreen: Bool = true, checkedScreen: String? = nil) {
        self.problem = problem
        self.details = details
        self.showsScreen = showsScreen
        self.checkedScreen = checkedScreen
    }

    package var description: String { details.map { "\(problem)\n\($0)" } ?? problem }
}

/// A flow that cannot run on this machine (its program is not installed): the attempt is
/// reported as skipped, not failed.
package struct FlowSkip: Error {
    /// Why, for the progress line.
    package var reason: String
}
