import Foundation
import HarnessCore
import TerminalEmulator

/// Everything the run report page shows, as `results.json` keeps it: every flow's result and
/// attempts, the timelines of traced attempts, each flow's recent history, and one table of
/// unique screen pictures (SVG) that steps and replays refer to by index.
///
/// `harness run --artifacts DIR` writes it beside `index.html`; `harness merge-reports` reads
/// the shards' files back, merges them (``merged(_:title:)``) and writes one page.
///
/// ```swift
/// var report = RunReport(results: results, traces: collector.traces, startedAt: start)
/// report.attachHistory(try FlowHistory(directory: "history").runs())
/// try RunReportWriter.write(report, toFolder: "artifacts")
/// ```
public struct RunReport: Sendable, Codable {
    /// The format of `results.json`; readers refuse other versions.
    public static let formatVersion = 1

    /// `formatVersion` when written.
    public var version: Int
    /// The page's title.
    public var title: String
    /// When the report was made.
    public var generatedAt: Date
    /// When the run started (the earliest shard's start after a merge).
    public var startedAt: Date?
    /// The run's wall time in seconds (the longest shard's after a merge).
    public var wallSeconds: Double?
    /// The shards this report covers (`2/4`), empty for an unsharded run.
    public var shards: [String]
    /// Every flow, sorted by path.
    public var flows: [Flow]
    /// The unique screen pictures, SVG without the XML declaration.
    public var frames: [String]
    /// What a merge found missing or doubled (`harness merge-reports --allow-partial`), one
    /// line each; nil for a complete run. The page then says the run is incomplete.
    public var incomplete: [String]?
    /// What the cases are, which the page names them after; nil (reports that do not say) is
    /// ``CaseKind/flows``.
    public var caseKind: CaseKind?

    /// What a report's cases are.
    public enum CaseKind: String, Sendable, Codable {
        /// Flows, or flows and Swift tests together: the page says "flows".
        case flows
        /// Swift tests only (`harness swift-test`, the traces Swift tests leave): the page says "tests".
        case tests
    }

    /// One flow's result.
    public struct Flow: Sendable, Codable {
        /// Its relative path.
        public var path: String
        /// Passed, failed, flaky or skipped.
        public var status: FlowStatus
        /// The time of all attempts together, in seconds.
        public var seconds: Double
        /// Every attempt, in order.
        public var attempts: [Attempt]
        /// Why it was skipped.
        public var skipReason: String?
        /// The shard that ran it, after a merge.
        public var shard: String?
        /// Its outcomes in the last runs of the history (this one included), oldest first.
        public var history: [HistoryPoint]?
        /// Whether the history shows it flipping between pass and fail (``FlowHistory/flipsBetweenPassAndFail(_:)``).
        public var flakyOverTime: Bool?
        /// The snapshots it left changed, to review and accept (``attachingSnapshotChanges(from:currentDirectory:)``).
        public var snapshots: [SnapshotChange]?
        /// For one argument case of a parameterized Swift test, the test's name (``FlowResult/parentTest``).
        public var parentTest: String?
    }

    /// One attempt at a flow.
    public struct Attempt: Sendable, Codable {
        /// 1-based.
        public var number: Int
        /// Its wall time in seconds.
        public var seconds: Double
        /// passed, failed or skipped.
        public var outcome: String
        /// The failure message (or the skip reason).
        public var message: String?
        /// The flow line that failed.
        public var position: SourcePosition?
        /// The files it left, relative to the report's folder.
        public var artifacts: FlowArtifacts?
        /// Its timeline and replay, when traced.
        public var trace: Trace?
    }

    /// A traced attempt as the page draws it.
    public struct Trace: Sendable, Codable {
        /// The wall-clock time of its start (the origin of its times).
        public var startDate: Date
        /// Seconds from the start to the end of its steps.
        public var duration: Double
        /// Every flow line, in order.
        public var steps: [Step]
        /// The stub server's requests.
        public var requests: [FlowTrace.Request]
        /// The bridge's events and spy records.
        public var messages: [FlowTrace.Message]
        /// The session's replay, when it ran in a terminal.
        public var replay: Replay?
    }

    /// One flow line in a timeline.
    public struct Step: Sendable, Codable {
        /// The line's text.
        public var text: String
        /// Its line number.
        public var line: Int
        /// Start, seconds from the trace's start.
        public var start: Double
        /// Duration in seconds.
        public var duration: Double
        /// How it ended.
        public var result: FlowTrace.StepResult
        /// What went wrong (failed step).
        public var problem: String?
        /// The diff or other details (failed step).
        public var details: String?
        /// The screen after it, an index into ``RunReport/frames``.
        public var frame: Int?
    }

    /// A session's replay: frames drawn by the harness's emulator from the recording.
    public struct Replay: Sendable, Codable {
        /// The terminal's columns at launch.
        public var cols: Int
        /// The terminal's rows at launch.
        public var rows: Int
        /// Each frame's time, seconds from the trace's start.
        public var times: [Double]
        /// Each frame's picture, indices into ``RunReport/frames``.
        public var frames: [Int]
    }

    /// One earlier (or this) run of a flow.
    public struct HistoryPoint: Sendable, Codable, Hashable {
        /// When that run started.
        public var date: Date
        /// The flow's verdict in it.
        public var status: FlowStatus
        /// Its time in seconds.
        public var seconds: Double

        package init(date: Date, status: FlowStatus, seconds: Double) {
            (self.date, self.status, self.seconds) = (date, status, seconds)
        }
    }

    /// Creates an empty report.
    public init(title: String = "Flow run", generatedAt: Date = Date(), startedAt: Date? = nil, wallSeconds: Double? = nil,
                shards: [String] = [], flows: [Flow] = [], frames: [String] = [], caseKind: CaseKind = .flows) {
        self.version = Self.formatVersion
        self.title = title
        self.caseKind = caseKind
        self.generatedAt = generatedAt
        self.startedAt = startedAt
        self.wallSeconds = wallSeconds
        self.shards = shards
        self.flows = flows
        self.frames = frames
    }

    /// A snapshot a flow or test left changed: its reference and the actual snapshot, as text
    /// and as pictures, and the command that accepts it. The page shows them side by side.
    public struct SnapshotChange: Sendable, Codable, Equatable {
        /// The reference file, relative to the folder the run ran in when inside it.
        public var reference: String
        /// The reference's text; nil when there was none yet (record mode `never`).
        public var expected: String?
        /// The actual snapshot's text.
        public var actual: String
        /// The reference's picture (SVG, without the XML declaration), when it has one.
        public var expectedSVG: String?
        /// The actual snapshot's picture.
        public var actualSVG: String?
        /// The shell command that copies the actual snapshot over the reference.
        public var acceptCommand: String

        package init(reference: String, expected: String?, actual: String, expectedSVG: String?, actualSVG: String?,
                     acceptCommand: String) {
            (self.reference, self.expected, self.actual, self.expectedSVG, self.actualSVG, self.acceptCommand) =
                (reference, expected, actual, expectedSVG, actualSVG, acceptCommand)
        }
    }
}
