import HarnessCore
import TerminalEmulator
/// `harness run --trace`: which flows keep their timeline (steps, screens, requests, events
/// and replay) in the report.
public enum FlowTraceMode: String, Sendable, Hashable, CaseIterable {
    /// Every flow, passing ones too.
    case on
    /// Failed and flaky flows only (the default): every attempt is traced cheaply (screens kept
    /// as snapshots, nothing drawn) and a passing first attempt's trace is dropped.
    case off
    /// The same as `off`, under Playwright's name.
    case retainOnFailure = "retain-on-failure"

    /// Whether an attempt that ended with `outcome` keeps its trace: always with `on`; failed
    /// attempts and passing retries (their flow is flaky) otherwise; never a skipped one.
    public func keeps(_ outcome: AttemptOutcome, attempt: Int) -> Bool {
        switch outcome {
        case .skipped: return false
        case .failed, .interrupted: return true
        case .passed: return self == .on || attempt > 1
        }
    }
}
