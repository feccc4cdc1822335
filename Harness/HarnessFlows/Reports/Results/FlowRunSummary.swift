import HarnessSteps
/// The counts of a run and its final line, `N passed, M failed` plus `, K flaky` and
/// `, S skipped` when not zero.
///
/// Flaky flows are counted only in `flaky` (not in `passed`), once each, and do not fail the run.
public struct FlowRunSummary: Sendable, Hashable, CustomStringConvertible {
    /// Flows that passed on the first attempt.
    public var passed: Int
    /// Flows that failed every attempt.
    public var failed: Int
    /// Flows that failed, then passed on a retry.
    public var flaky: Int
    /// Flows not run.
    public var skipped: Int
    /// Flows stopped, or never started, because the run was cancelled.
    public var interrupted: Int

    /// Creates counts.
    public init(passed: Int = 0, failed: Int = 0, flaky: Int = 0, skipped: Int = 0, interrupted: Int = 0) {
        self.passed = passed
        self.failed = failed
        self.flaky = flaky
        self.skipped = skipped
        self.interrupted = interrupted
    }

    /// Counts `results`.
    public init(_ results: [FlowResult]) {
        self.init()
        for result in results {
            switch result.status {
            case .passed: passed += 1
            case .failed: failed += 1
            case .flaky: flaky += 1
            case .skipped: skipped += 1
            case .interrupted: interrupted += 1
            }
        }
    }

    /// All flows.
    public var total: Int { passed + failed + flaky + skipped + interrupted }

    /// True when nothing failed and nothing was interrupted (the run's exit status is 0).
    public var succeeded: Bool { failed == 0 && interrupted == 0 }

    /// 0 when nothing failed, else 1.
    public var exitCode: Int32 { succeeded ? 0 : 1 }

    /// `N passed, M failed[, K flaky][, S skipped][, I interrupted]`.
    public var description: String {
        var line = "\(passed) passed, \(failed) failed"
        if flaky > 0 { line += ", \(flaky) flaky" }
        if skipped > 0 { line += ", \(skipped) skipped" }
        if interrupted > 0 { line += ", \(interrupted) interrupted" }
        return line
    }
}
