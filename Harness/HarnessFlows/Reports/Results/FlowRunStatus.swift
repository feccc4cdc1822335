import Foundation
import HarnessSteps

/// The live status line of a run on a terminal (`harness run`): how many flows are done, which
/// are running, the time so far and an estimate of the time left from earlier durations.
///
/// ```
/// 12/500 done, 2 running: Tests/Flows/a.flow, Tests/Flows/b.flow · 1m05s so far, about 3m20s left
/// ```
///
/// A value the run updates as flows start and finish; times are seconds since the run started,
/// given by the caller, so the estimate is a plain function of what it is told.
///
/// The estimate: the expected time of every flow not finished (its earlier duration; for a
/// flow without one, the average earlier duration, or before any history the average of the
/// flows finished so far), less what the running ones already took, spread over the workers,
/// and never less than what the longest running flow still needs. Without any duration known
/// yet there is no estimate.
package struct FlowRunStatus: Sendable {
    /// How many flows the run has.
    package let total: Int
    /// How many run at once.
    package let workers: Int
    private let durations: [String: Double]
    private let averageKnown: Double?
    private var pending: Set<String>
    private var running: [(name: String, since: Double)] = []
    private var finishedSeconds: [Double] = []

    /// The status of a run of `names` on `workers`, with earlier `durations` (seconds by name).
    package init(names: [String], workers: Int, durations: [String: Double]) {
        total = names.count
        self.workers = max(workers, 1)
        pending = Set(names)
        let known = names.compactMap { durations[$0] }
        self.durations = durations
        averageKnown = known.isEmpty ? nil : known.reduce(0, +) / Double(known.count)
    }

    /// How many flows are done.
    package var done: Int { finishedSeconds.count }

    /// `name` started (an attempt of it; a retry keeps its first start) at `time`.
    package mutating func started(_ name: String, at time: Double) {
        guard !running.contains(where: { $0.name == name }) else { return }
        pending.remove(name)
        running.append((name, time))
    }

    /// `name` finished after `seconds` in all.
    package mutating func finished(_ name: String, seconds: Double) {
        pending.remove(name)
        running.removeAll { $0.name == name }
        finishedSeconds.append(seconds)
    }

    /// The expected seconds left at `time`, or nil when no duration is known yet.
    package func secondsLeft(at time: Double) -> Double? {
        let fallback = averageKnown ?? (finishedSeconds.isEmpty ? nil : finishedSeconds.reduce(0, +) / Double(finishedSeconds.count))
        func expected(_ name: String) -> Double? { durations[name] ?? fallback }
        var work = 0.0
        var longestRunning = 0.0
        for name in pending {
            guard let seconds = expected(name) else { return nil }
            work += seconds
        }
        for (name, since) in running {
            guard let seconds = expected(name) else { return nil }
            let rest = max(seconds - (time - since), 0)
            work += rest
            longestRunning = max(longestRunning, rest)
        }
        return max(work / Double(workers), longestRunning)
    }

    /// The line at `time`, at most `width - 1` characters (the last column stays free, so a
    /// terminal never wraps it).
    package func line(at time: Double, width: Int) -> String {
        let head = "\(done)/\(total) done, \(running.count) running"
        var tail = " · \(Self.duration(time)) so far"
        if let left = secondsLeft(at: time) { tail += ", about \(Self.duration(left)) left" }
        let room = max(width - 1, 1)
        let names = running.map(\.name)
        var text = head + tail
        if !names.isEmpty {
            // As many running names as fit, the others as "+N".
            for shown in stride(from: names.count, through: 1, by: -1) {
                let more = shown < names.count ? " +\(names.count - shown)" : ""
                let candidate = head + ": " + names.prefix(shown).joined(separator: ", ") + more + tail
                if candidate.count <= room || shown == 1 {
                    text = candidate
                    break
                }
            }
        }
        return text.count <= room ? text : String(text.prefix(max(room - 1, 0))) + "…"
    }

    /// `42s`, `3m05s`, `1h02m`.
    package static func duration(_ seconds: Double) -> String {
        let whole = Int(max(seconds, 0).rounded())
        if whole < 60 { return "\(whole)s" }
        if whole < 3600 { return String(format: "%dm%02ds", whole / 60, whole % 60) }
        return String(format: "%dh%02dm", whole / 3600, (whole % 3600) / 60)
    }
}
