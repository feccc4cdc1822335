import Foundation
import HarnessFlows

/// What `harness run` and `harness swift-test` write once a run is over, the same way: the
/// JUnit file, the run appended to the history, and the report (`index.html`, `results.json`)
/// with the history's strips. A file that cannot be written is said on standard error and
/// makes the run fail (exit 1); a history that cannot be read only leaves the strips out.
struct RunFiles {
    /// The command's name in messages (`harness run`).
    var command: String
    var junit: String?
    var history: FlowHistory?
    var artifacts: String?

    /// Writes the files of `results`; `report` makes the report for the artifacts folder it is
    /// given (the history is added to it here).
    /// Returns whether every file was written, and the report page's path.
    func write(
        _ results: [FlowResult], junitReport: JUnitReport, startDate: Date, shard: String?,
        report: (_ artifacts: String) throws -> RunReport
    ) -> (ok: Bool, page: String?) {
        var ok = true
        if let junit {
            do {
                // `--junit test-results/junit.xml` makes its folder, as `--artifacts` does.
                try FileManager.default.createDirectory(atPath: FlowPaths.directory(of: junit), withIntermediateDirectories: true)
                try JUnitWriter.write(junitReport, to: junit)
            } catch {
                HarnessCLI.printError("\(command): cannot write \(junit): \(error.localizedDescription)")
                ok = false
            }
        }
        var historyRuns: [FlowHistory.Run]?
        if let history {
            do {
                try history.append(FlowHistory.Run(results: results, date: startDate, shard: shard))
            } catch {
                HarnessCLI.printError("\(command): cannot add the run to the history in \(history.directory): \(error.localizedDescription)")
                ok = false
            }
            if artifacts != nil {
                // The report's history strips; a history it cannot read leaves them out.
                do {
                    historyRuns = try history.runs()
                } catch {
                    HarnessCLI.printError("\(command): the report shows no history: \(error)")
                }
            }
        }
        guard let artifacts else { return (ok, nil) }
        do {
            var made = try report(artifacts)
            if let historyRuns { made.attachHistory(historyRuns) }
            return (ok, try RunReportWriter.write(made, toFolder: artifacts))
        } catch {
            HarnessCLI.printError("\(command): cannot write the report in \(artifacts): \(error)")
            return (false, nil)
        }
    }

    /// Writes `plan` into the `artifacts` folder (``FlowRunPlan/fileName``), before anything
    /// runs; says so on standard error when it cannot. Returns whether it was written (true
    /// without a folder).
    static func writePlan(_ plan: FlowRunPlan, command: String, artifacts: String?) -> Bool {
        guard let artifacts else { return true }
        do {
            try plan.write(toFolder: artifacts)
            return true
        } catch {
            HarnessCLI.printError("\(command): cannot write the plan in \(artifacts): \(error.localizedDescription)")
            return false
        }
    }
}
