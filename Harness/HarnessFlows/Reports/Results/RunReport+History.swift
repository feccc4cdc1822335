import HarnessSteps

extension RunReport {
    /// Adds each flow's last `limit` outcomes from `runs` (oldest first; the history should
    /// hold this run already) and flags the flows that flip between pass and fail.
    public mutating func attachHistory(_ runs: [FlowHistory.Run], limit: Int = 20) {
        var points: [String: [HistoryPoint]] = [:]
        var entries: [String: [FlowHistory.Entry]] = [:]
        for run in runs.sorted(by: { $0.date < $1.date }) {
            for entry in run.flows {
                points[entry.path, default: []].append(HistoryPoint(date: run.date, status: entry.status, seconds: entry.seconds))
                entries[entry.path, default: []].append(entry)
            }
        }
        for index in flows.indices {
            let path = flows[index].path
            guard let recent = points[path]?.suffix(limit), !recent.isEmpty else { continue }
            flows[index].history = Array(recent)
            flows[index].flakyOverTime = FlowHistory.flipsBetweenPassAndFail(Array(entries[path, default: []].suffix(limit)))
        }
    }
}
