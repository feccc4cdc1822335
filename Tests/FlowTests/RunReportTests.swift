import Foundation
import TestSupport
import Testing
import Harness
import TerminalEmulator
@testable import HarnessFlows
@testable import HarnessSteps

/// The run report's data and page without a browser: replay frames, deduplication, merging,
/// escaping, trace modes.
@Suite struct RunReportTests {
    static func recording(_ events: [(Double, String)]) -> TerminalRecording {
        TerminalRecording(size: TerminalSize(cols: 20, rows: 3), events: events.map { .init(time: $0.0, kind: .output, bytes: Array($0.1.utf8)) })
    }

    @Test func replayFramesAreAtMostThirtyASecondPlusStepBoundariesAndNeverRepeat() {
        let recording = Self.recording([(0, "a"), (0.01, "b"), (0.02, "c"), (0.5, "d"), (0.6, "\u{1B}[0m")])
        let frames = ReplayFrames.frames(of: recording)
        // a, b and c fall in one 1/30 s bucket; the SGR reset changes nothing on the screen.
        #expect(frames.map(\.time) == [0.02, 0.5])
        #expect(frames.map { $0.screen.line(0) } == ["abc", "abcd"])
        let withBoundary = ReplayFrames.frames(of: recording, boundaries: [0.015])
        #expect(withBoundary.map { $0.screen.line(0) } == ["ab", "abc", "abcd"])
    }

    /// A key typed right after output (within one 1/30 s bucket) still splits the frames: the
    /// screen it was typed at is one, whatever the step boundaries' clock says.
    @Test func eachInputStartsANewFrame() {
        var recording = Self.recording([(0, "Start"), (0.02, "\rOops!")])
        recording.events.insert(.init(time: 0.01, kind: .input, bytes: [13]), at: 1)
        #expect(ReplayFrames.frames(of: recording).map { $0.screen.line(0) } == ["Start", "Oops!"])
        #expect(ReplayFrames.frames(of: Self.recording([(0, "Start"), (0.02, "\rOops!")])).map { $0.screen.line(0) } == ["Oops!"],
                "without the input both outputs fall in one bucket")
        var onlyInput = Self.recording([])
        onlyInput.events = [.init(time: 0, kind: .input, bytes: [13])]
        #expect(ReplayFrames.frames(of: onlyInput).isEmpty)
    }

    @Test func framesAreStoredOnceAndMergedReportsRemapThem() {
        var table = ReportFrameTable()
        #expect(table.add(svg: "<?xml version=\"1.0\"?>\n<svg>A</svg>") == 0)
        #expect(table.add(svg: "<svg>B</svg>") == 1)
        #expect(table.add(svg: "<svg>A</svg>") == 0)
        #expect(table.frames == ["<svg>A</svg>", "<svg>B</svg>"])

        func report(_ path: String, frames: [String], shard: String) -> RunReport {
            let step = RunReport.Step(text: "expect \"x\"", line: 3, start: 0, duration: 0.1, result: .failed, frame: 1)
            let trace = RunReport.Trace(startDate: Date(), duration: 1, steps: [step], requests: [], messages: [],
                                        replay: RunReport.Replay(cols: 20, rows: 3, times: [0, 0.5], frames: [0, 1]))
            let attempt = RunReport.Attempt(number: 1, seconds: 1, outcome: "failed", message: "m",
                                            artifacts: FlowArtifacts(cast: "s/\(path).cast"), trace: trace)
            return RunReport(shards: [shard], flows: [RunReport.Flow(path: path, status: .failed, seconds: 1, attempts: [attempt])],
                             frames: frames)
        }
        let merged = RunReport.merged([(report("b.flow", frames: ["<svg>B</svg>", "<svg>C</svg>"], shard: "2/2"), "shard-2"),
                                       (report("a.flow", frames: ["<svg>A</svg>", "<svg>B</svg>"], shard: "1/2"), "shard-1")])
        #expect(merged.frames == ["<svg>B</svg>", "<svg>C</svg>", "<svg>A</svg>"])
        #expect(merged.flows.map(\.path) == ["a.flow", "b.flow"])
        #expect(merged.flows.map { $0.shard } == ["1/2", "2/2"])
        let a = merged.flows[0].attempts[0]
        #expect(a.trace?.replay?.frames == [2, 0] && a.trace?.steps[0].frame == 0)
        #expect(a.artifacts?.cast == "shard-1/s/a.flow.cast")
        #expect(merged.flows[1].attempts[0].trace?.replay?.frames == [0, 1])
        #expect(merged.results.map(\.status) == [.failed, .failed])
    }

    @Test func pageEscapesEverythingAndKeepsFramesInsideTheirScript() throws {
        let evil = "</script><script>alert(1)</script><!--"
        let failure = FlowFailure(message: evil, position: SourcePosition(file: "x", line: 2, column: 1))
        let results = [FlowResult(flow: FlowFile(path: "/x/\(evil).flow", relativePath: "\(evil).flow"),
                                  attempts: [FlowAttempt(number: 1, duration: .seconds(1), outcome: .failed(failure))])]
        let terminal = Terminal(cols: 40, rows: 2)
        terminal.feed(evil)
        let trace = FlowTrace(path: "\(evil).flow", attempt: 1, startDate: Date(), duration: 1, steps: [
            FlowTrace.Step(text: "expect \"\(evil)\"", line: 2, start: 0, duration: 1, result: .failed, problem: evil,
                           details: "-\(evil)\n+x", screen: terminal.snapshot()),
        ], requests: [.init(time: 0.5, method: "GET", target: "/\(evil)", status: "404")],
           messages: [.init(time: 0.2, kind: .event, name: evil, value: evil)])
        let report = RunReport(results: results, traces: ["\(evil).flow": [1: trace]], title: evil)
        let html = RunReportPage.html(report)
        #expect(html.components(separatedBy: "<script").count == 3, "only the frames' and the page's own scripts")
        #expect(html.components(separatedBy: "</script>").count == 3)
        #expect(!html.contains("<!--"))
        #expect(!html.contains("src=\"http") && !html.contains("href=\"http"), "nothing from the network")
        // The frames' JSON parses back to the pictures.
        let start = try #require(html.range(of: "<script type=\"application/json\" id=\"frames\">"))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let frames = try JSONDecoder().decode([String].self, from: Data(html[start.upperBound..<end.lowerBound].utf8))
        #expect(frames == report.frames && frames.count == 1 && frames[0].hasPrefix("<svg"))
    }

    @Test(arguments: [
        (FlowTraceMode.off, AttemptOutcome.passed, 1, false), (.off, .passed, 2, true), (.off, .failed(FlowFailure(message: "x")), 1, true),
        (.retainOnFailure, .passed, 1, false), (.on, .passed, 1, true), (.on, .skipped(reason: "no"), 1, false),
    ])
    func traceModesKeepFailedAndFlakyAttempts(mode: FlowTraceMode, outcome: AttemptOutcome, attempt: Int, kept: Bool) {
        #expect(mode.keeps(outcome, attempt: attempt) == kept)
    }
}
