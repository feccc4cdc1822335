import HarnessSteps

extension RunReport {
    /// The counts of the report's flows.
    public var summary: FlowRunSummary {
        var summary = FlowRunSummary()
        for flow in flows {
            switch flow.status {
            case .passed: summary.passed += 1
            case .failed: summary.failed += 1
            case .flaky: summary.flaky += 1
            case .skipped: summary.skipped += 1
            case .interrupted: summary.interrupted += 1
            }
        }
        return summary
    }
}
