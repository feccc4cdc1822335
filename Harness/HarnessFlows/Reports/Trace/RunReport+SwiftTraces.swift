import Foundation
import HarnessSteps

extension RunReport {
    /// This report with the traces Swift tests left under `<folder>/swift-tests/` (one report
    /// per run of steps, ``StepEngine``) attached to the tests of the same name
    /// (`Module.Suite/test()`): the last attempt of each gets the timeline, screens, requests,
    /// messages and replay, and the artifacts the run wrote. A test that ran steps several
    /// times shows its failing run, else its last. Traces of no listed test are left out (the
    /// totals stay those of the results); none at all leaves the report as it is.
    public func attachingSwiftTraces(from folder: String) throws -> RunReport {
        guard let swift = try RunReportWriter.readSwiftReports(folder: folder) else { return self }
        var chosen: [String: RunReport.Flow] = [:]
        for flow in swift.flows {
            if let earlier = chosen[flow.path], earlier.status == .failed, flow.status != .failed { continue }
            chosen[flow.path] = flow
        }
        var report = self
        var table = ReportFrameTable(frames: frames)
        let remap = swift.frames.map { table.add(svg: $0) }
        for index in report.flows.indices {
            guard let source = chosen[report.flows[index].path]?.attempts.last,
                  let last = report.flows[index].attempts.indices.last else { continue }
            report.flows[index].attempts[last].trace = source.trace?.remapped(remap)
            if report.flows[index].attempts[last].artifacts == nil {
                report.flows[index].attempts[last].artifacts = source.artifacts
            }
        }
        report.frames = table.frames
        return report
    }
}
