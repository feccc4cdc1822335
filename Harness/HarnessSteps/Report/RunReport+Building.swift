import Foundation
import HarnessCore
import HarnessSystem
import TerminalEmulator

extension RunReport {
    /// The report of a run: `results`, with the timelines of the attempts in `traces` (by flow
    /// path, then attempt number). Screens and replay frames are drawn here, once each.
    public init(results: [FlowResult], traces: [String: [Int: FlowTrace]] = [:], title: String = "Flow run",
                startedAt: Date? = nil, wallSeconds: Double? = nil, shard: String? = nil, generatedAt: Date = Date(),
                caseKind: CaseKind = .flows) {
        self.init(title: title, generatedAt: generatedAt, startedAt: startedAt, wallSeconds: wallSeconds,
                  shards: shard.map { [$0] } ?? [], caseKind: caseKind)
        var table = ReportFrameTable()
        let drawn = Self.draw(traces, into: &table)
        flows = results.sorted { $0.path < $1.path }.map { result in
            let attempts = result.attempts.map { attempt -> Attempt in
                var entry = Attempt(number: attempt.number, seconds: attempt.duration.flowSeconds, outcome: "passed")
                switch attempt.outcome {
                case .passed: break
                case .skipped(let reason):
                    entry.outcome = "skipped"
                    entry.message = reason
                case .failed(let failure):
                    entry.outcome = "failed"
                    entry.message = failure.message
                    entry.position = failure.position
                    entry.artifacts = failure.artifacts.isEmpty ? nil : failure.artifacts
                case .interrupted(let interruption):
                    entry.outcome = "interrupted"
                    entry.message = interruption.message
                    entry.position = interruption.position
                    entry.artifacts = interruption.artifacts.isEmpty ? nil : interruption.artifacts
                }
                entry.trace = drawn[result.path]?[attempt.number]
                return entry
            }
            return Flow(path: result.path, status: result.status, seconds: result.duration.flowSeconds, attempts: attempts,
                        skipReason: result.skipReason, shard: shard, parentTest: result.parentTest)
        }
        frames = table.frames
    }

    /// Every trace with its screens drawn, the traces in parallel (drawing is most of the cost
    /// of a report), the pictures then gathered into `table` in the order of paths and attempts
    /// (so the same run always gives the same file).
    package static func draw(_ traces: [String: [Int: FlowTrace]], into table: inout ReportFrameTable) -> [String: [Int: Trace]] {
        let list = traces.keys.sorted().flatMap { path in
            traces[path, default: [:]].sorted { $0.key < $1.key }.map(\.value)
        }
        let slots = DrawnTraces(count: list.count)
        DispatchQueue.concurrentPerform(iterations: list.count) { index in
            var local = ReportFrameTable()
            let trace = Self.trace(list[index], frames: &local)
            slots.set(index, trace, local.frames)
        }
        var drawn: [String: [Int: Trace]] = [:]
        for (index, original) in list.enumerated() {
            guard let (trace, frames) = slots.get(index) else { continue }
            let remap = frames.map { table.add(svg: $0) }
            drawn[original.path, default: [:]][original.attempt] = trace.remapped(remap)
        }
        return drawn
    }

    /// A trace with its screens drawn into `table`.
    package static func trace(_ trace: FlowTrace, frames table: inout ReportFrameTable) -> Trace {
        let steps = trace.steps.map { step in
            Step(text: step.text, line: step.line, start: step.start, duration: step.duration, result: step.result,
                 problem: step.problem, details: step.details, frame: step.screen.map { table.add(screen: $0) })
        }
        var replay: Replay?
        if let recording = trace.recording {
            // Recording times count from the launch; the trace's from the attempt's start.
            let offset = recording.startDate.timeIntervalSince(trace.startDate)
            let boundaries = trace.steps.filter { $0.result != .notRun }.map { $0.start + $0.duration - offset }
            let frames = ReplayFrames.frames(of: recording, boundaries: boundaries)
            if !frames.isEmpty {
                replay = Replay(cols: recording.size.cols, rows: recording.size.rows,
                                times: frames.map { ($0.time + offset).roundedToMilliseconds },
                                frames: frames.map { table.add(screen: $0.screen) })
            }
        }
        return Trace(startDate: trace.startDate, duration: trace.duration, steps: steps, requests: trace.requests,
                     messages: trace.messages, replay: replay)
    }

    /// The results again (without traces), for JUnit and the history after a merge.
    public var results: [FlowResult] {
        flows.map { flow in
            FlowResult(flow: FlowFile(path: flow.path, relativePath: flow.path), attempts: flow.attempts.map { attempt in
                let outcome: AttemptOutcome
                switch attempt.outcome {
                case "failed":
                    outcome = .failed(FlowFailure(message: attempt.message ?? "", position: attempt.position,
                                                  artifacts: attempt.artifacts ?? FlowArtifacts()))
                case "skipped": outcome = .skipped(reason: attempt.message ?? flow.skipReason ?? "")
                case "interrupted":
                    outcome = .interrupted(FlowFailure(message: attempt.message ?? "interrupted", position: attempt.position,
                                                       artifacts: attempt.artifacts ?? FlowArtifacts()))
                default: outcome = .passed
                }
                return FlowAttempt(number: attempt.number, duration: .milliseconds(Int64((attempt.seconds * 1000).rounded())),
                                   outcome: outcome)
            }, parentTest: flow.parentTest)
        }
    }

    /// One report from several (the shards of a run): flows of all, sorted by path, frames
    /// deduplicated again, artifact paths put under each part's `prefix` (the folder its files
    /// were copied to, relative to the merged report's folder; empty for none). Its cases are
    /// tests when every part's are, else flows.
    public static func merged(_ parts: [(report: RunReport, prefix: String)], title: String = "Flow run",
                              generatedAt: Date = Date()) -> RunReport {
        let tests = !parts.isEmpty && parts.allSatisfy { $0.report.caseKind == .tests }
        var merged = RunReport(title: title, generatedAt: generatedAt, caseKind: tests ? .tests : .flows)
        var table = ReportFrameTable()
        for (report, prefix) in parts {
            let remap = report.frames.map { table.add(svg: $0) }
            let shard = report.shards.count == 1 ? report.shards[0] : nil
            for var flow in report.flows {
                flow.shard = flow.shard ?? shard
                for index in flow.attempts.indices {
                    flow.attempts[index].artifacts = flow.attempts[index].artifacts.map { $0.prefixed(with: prefix) }
                    flow.attempts[index].trace = flow.attempts[index].trace?.remapped(remap)
                }
                merged.flows.append(flow)
            }
            merged.shards += report.shards
            if let start = report.startedAt { merged.startedAt = min(merged.startedAt ?? start, start) }
            if let wall = report.wallSeconds { merged.wallSeconds = max(merged.wallSeconds ?? wall, wall) }
        }
        merged.flows.sort { $0.path < $1.path }
        merged.frames = table.frames
        return merged
    }
}

extension RunReport.Trace {
    /// The trace with its frame indices `i` replaced by `remap[i]` (a replay with an index
    /// out of range is dropped, a step's picture forgotten).
    package func remapped(_ remap: [Int]) -> RunReport.Trace {
        func frame(_ index: Int) -> Int? { remap.indices.contains(index) ? remap[index] : nil }
        var trace = self
        for step in trace.steps.indices { trace.steps[step].frame = trace.steps[step].frame.flatMap(frame) }
        if var replay = trace.replay {
            replay.frames = replay.frames.compactMap(frame)
            trace.replay = replay.frames.count == replay.times.count ? replay : nil
        }
        return trace
    }
}

/// The traces drawn by parallel workers, each into its own slot.
private final class DrawnTraces: Sendable {
    private let slots: Locked<[(RunReport.Trace, [String])?]>

    package init(count: Int) {
        slots = Locked(Array(repeating: nil, count: count))
    }

    package func set(_ index: Int, _ trace: RunReport.Trace, _ frames: [String]) {
        slots.withLock { $0[index] = (trace, frames) }
    }

    package func get(_ index: Int) -> (RunReport.Trace, [String])? {
        slots.withLock { $0[index] }
    }
}

extension FlowArtifacts {
    /// Every path with `prefix/` in front (unchanged when `prefix` is empty).
    package func prefixed(with prefix: String) -> FlowArtifacts {
        guard !prefix.isEmpty else { return self }
        func add(_ path: String?) -> String? { path.map { FlowPaths.join(prefix, $0) } }
        return FlowArtifacts(cast: add(cast), screenText: add(screenText), screenSVG: add(screenSVG), journal: add(journal),
                             events: add(events), stdout: add(stdout), stderr: add(stderr), screenPNG: add(screenPNG))
    }
}

extension Double {
    /// Rounded to three decimals (times in reports).
    package var roundedToMilliseconds: Double { (self * 1000).rounded() / 1000 }
}
