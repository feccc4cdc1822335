/// Files left for a failed attempt, as paths relative to the artifacts folder (where
/// `index.html` is written), any of them absent.
public struct FlowArtifacts: Sendable, Hashable, Codable {
    /// The session recording (asciicast v2).
    public var cast: String?
    /// The last screen as text.
    public var screenText: String?
    /// The last screen as SVG.
    public var screenSVG: String?
    /// The last screen as PNG (drawn when GNU Unifont is installed).
    public var screenPNG: String?
    /// The stub server's request journal.
    public var journal: String?
    /// The bridge events.
    public var events: String?
    /// A pipes run's standard output, as read until the failure.
    public var stdout: String?
    /// A pipes run's standard error, as read until the failure.
    public var stderr: String?

    /// Creates a set of artifacts.
    public init(
        cast: String? = nil, screenText: String? = nil, screenSVG: String? = nil, journal: String? = nil, events: String? = nil,
        stdout: String? = nil, stderr: String? = nil, screenPNG: String? = nil
    ) {
        self.cast = cast
        self.screenText = screenText
        self.screenSVG = screenSVG
        self.screenPNG = screenPNG
        self.journal = journal
        self.events = events
        self.stdout = stdout
        self.stderr = stderr
    }

    /// True when no artifact is recorded.
    public var isEmpty: Bool { self == FlowArtifacts() }
}

/// Why an attempt failed: the message, the flow line it failed on, and what it left behind.
public struct FlowFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The message (may span lines, e.g. with the screen as it was).
    public var message: String
    /// The flow line that failed, when known.
    public var position: SourcePosition?
    /// The artifacts of this attempt.
    public var artifacts: FlowArtifacts

    /// Creates a failure.
    public init(message: String, position: SourcePosition? = nil, artifacts: FlowArtifacts = FlowArtifacts()) {
        self.message = message
        self.position = position
        self.artifacts = artifacts
    }

    /// `file:line:column: message`, or the message alone.
    public var description: String { position.map { "\($0): \(message)" } ?? message }

    /// The first line of the message, for one-line progress output.
    public var summary: String { String(message.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "") }
}

/// How one attempt at a flow ended, as the job closure reports it.
public enum AttemptOutcome: Sendable, Hashable {
    /// Every step passed.
    case passed
    /// A step failed (or the flow could not run).
    case failed(FlowFailure)
    /// The flow was not run (e.g. it needs something this machine lacks); never retried.
    case skipped(reason: String)
    /// The run was cancelled (SIGINT, SIGTERM) while the attempt ran, or before it began: the
    /// failure's message says why (`interrupted by SIGINT`), its position the step that was
    /// running. Never retried.
    case interrupted(FlowFailure)
}

/// One attempt: its number (1-based), how long it took and how it ended.
public struct FlowAttempt: Sendable, Hashable {
    /// 1 for the first run, 2 for the first retry...
    public var number: Int
    /// Wall time of the attempt.
    public var duration: Duration
    /// How it ended.
    public var outcome: AttemptOutcome

    /// Creates an attempt record.
    public init(number: Int, duration: Duration, outcome: AttemptOutcome) {
        self.number = number
        self.duration = duration
        self.outcome = outcome
    }

    /// The failure, when the attempt failed.
    public var failure: FlowFailure? {
        if case .failed(let failure) = outcome { return failure }
        return nil
    }

    /// Why the attempt was interrupted, when it was.
    public var interruption: FlowFailure? {
        if case .interrupted(let interruption) = outcome { return interruption }
        return nil
    }
}

/// The verdict on a flow after all its attempts.
public enum FlowStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// Passed on the first attempt.
    case passed
    /// Failed on every attempt.
    case failed
    /// Failed, then passed on a retry: reported as flaky, counted once, does not fail the run.
    case flaky
    /// Not run.
    case skipped
    /// Stopped, or never started, because the run was cancelled (SIGINT, SIGTERM).
    case interrupted
}

/// The result of one flow: its status and every attempt.
public struct FlowResult: Sendable, Hashable {
    /// The flow.
    public var flow: FlowFile
    /// The attempts, in order (at least one).
    public var attempts: [FlowAttempt]
    /// For one argument case of a parameterized Swift test (``SwiftTestCaseName``), the test's
    /// name as `swift test list` prints it (`Module.Suite/test(_:)`); nil for a flow or a whole test.
    public var parentTest: String?

    /// Creates a result.
    public init(flow: FlowFile, attempts: [FlowAttempt], parentTest: String? = nil) {
        self.flow = flow
        self.attempts = attempts
        self.parentTest = parentTest
    }

    /// The flow's name (file name without `.flow`, with its matrix case and repetition); a test
    /// case's is its test's function and its arguments (`test(_:) [login.flow]`).
    public var name: String {
        guard let parentTest, path.hasPrefix(parentTest) else { return flow.decorated(flow.name) }
        return FlowFile(path: parentTest, relativePath: parentTest).name + path.dropFirst(parentTest.count)
    }

    /// The folder that holds it: the flow's, or a test's suite (`Module.Suite`), also for a case
    /// of a test (whose arguments may hold slashes).
    public var folder: String {
        parentTest.map { FlowFile(path: $0, relativePath: $0).folder } ?? flow.folder
    }
    /// The flow's relative path, with its matrix case and repetition (``FlowFile/caseName``).
    public var path: String { flow.caseName }

    /// Passed (first attempt), flaky (a later one), skipped, or failed.
    public var status: FlowStatus {
        guard let last = attempts.last else { return .skipped }
        switch last.outcome {
        case .passed: return attempts.count == 1 ? .passed : .flaky
        case .failed: return .failed
        case .skipped: return .skipped
        case .interrupted: return .interrupted
        }
    }

    /// The time of all attempts together.
    public var duration: Duration { attempts.reduce(.zero) { $0 + $1.duration } }

    /// The last failure (for a flaky flow, the failure of its last failed attempt).
    public var lastFailure: FlowFailure? { attempts.last { $0.failure != nil }?.failure }

    /// The failure message of a failed flow (or of the last failed attempt of a flaky one).
    public var failureMessage: String? { lastFailure?.message }

    /// The flow line of that failure.
    public var failurePosition: SourcePosition? { lastFailure?.position }

    /// The artifacts of that failure.
    public var artifacts: FlowArtifacts { lastFailure?.artifacts ?? FlowArtifacts() }

    /// Why an interrupted flow was interrupted.
    public var interruption: FlowFailure? { attempts.last?.interruption }

    /// The reason a skipped flow was skipped.
    public var skipReason: String? {
        if case .skipped(let reason) = attempts.last?.outcome { return reason }
        return nil
    }
}

extension Duration {
    /// The duration in seconds as a `Double` (for reports).
    package var flowSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
