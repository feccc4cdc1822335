import Foundation
import TerminalEmulator
import HarnessCore

/// What one attempt at a flow did, in time: each step with its start, duration, result and the
/// screen after it, the stub server's requests, the bridge's events and spy records, and the
/// session's recording. The run report turns it into a timeline and a replay.
///
/// Screens are kept as ``ScreenSnapshot`` values (a copy of the grid, no drawing): pictures are
/// drawn only when a report needs them.
public struct FlowTrace: Sendable {
    /// How a step ended.
    public enum StepResult: String, Sendable, Hashable, Codable {
        /// The step did what it checks.
        case passed
        /// The step failed: the attempt stopped here.
        case failed
        /// The step found that the flow cannot run here (its program is missing).
        case skipped
        /// The step was never reached (an earlier one failed).
        case notRun
    }

    /// One flow line as it ran.
    public struct Step: Sendable {
        /// The line as the flow would write it (`expect "Oops"`).
        public var text: String
        /// Its line in the flow file.
        public var line: Int
        /// Seconds from the trace's start to the step's start (0 for steps never reached).
        public var start: Double
        /// How long it took in seconds.
        public var duration: Double
        /// How it ended.
        public var result: StepResult
        /// What went wrong, for a failed step.
        public var problem: String?
        /// More lines about it (a diff, the bytes received), for a failed step.
        public var details: String?
        /// The screen after the step, when the app ran in a terminal.
        public var screen: ScreenSnapshot?
    }

    /// One request the stub server journaled.
    public struct Request: Sendable, Hashable, Codable {
        /// Seconds from the trace's start to when the request was complete.
        public var time: Double
        /// `GET`.
        public var method: String
        /// `/todos?done=1`.
        public var target: String
        /// What the stub answered: `200`, `404` (no stub matched), `hang` or `closed`.
        public var status: String
        /// The answer's delay in seconds, when the stub had one.
        public var delay: Double?
    }

    /// One message the app sent over the bridge, or a notice of the terminal.
    public struct Message: Sendable, Hashable, Codable {
        /// An event (`publish`), a spy record or a terminal notice.
        public enum Kind: String, Sendable, Hashable, Codable {
            /// An event the app published (`event` lines check them).
            case event
            /// A call the app's spy recorded (`spy` lines check them).
            case spy
            /// Something the terminal did on its own (``TerminalNotice``: a synchronized frame
            /// released by the limit); the name is `terminal`, the value the notice.
            case terminal
        }
        /// Seconds from the trace's start to its arrival.
        public var time: Double
        /// Event or spy record.
        public var kind: Kind
        /// The event's or the spy's name.
        public var name: String
        /// The value as JSON text (an app's cut at 300 characters).
        public var value: String

        /// An app's value as a trace keeps it: its first 300 characters, then `…`.
        static func clipped(_ value: String) -> String {
            value.count > 300 ? String(value.prefix(300)) + "…" : value
        }
    }

    /// The flow's relative path.
    public var path: String
    /// The attempt number (1-based).
    public var attempt: Int
    /// When the attempt started: the origin of every time in the trace.
    public var startDate: Date
    /// Seconds from the start to the end of the attempt's steps.
    public var duration: Double
    /// Every line of the flow, in order; lines after a failure are `notRun`.
    public var steps: [Step]
    /// The stub server's requests, in order.
    public var requests: [Request]
    /// The bridge's events and spy records, in arrival order.
    public var messages: [Message]
    /// The session's recording (for the replay), when the app ran in a terminal.
    package var recording: TerminalRecording?

    /// Creates a trace.
    package init(path: String, attempt: Int, startDate: Date, duration: Double, steps: [Step] = [],
                requests: [Request] = [], messages: [Message] = [], recording: TerminalRecording? = nil) {
        self.path = path
        self.attempt = attempt
        self.startDate = startDate
        self.duration = duration
        self.steps = steps
        self.requests = requests
        self.messages = messages
        self.recording = recording
    }
}
