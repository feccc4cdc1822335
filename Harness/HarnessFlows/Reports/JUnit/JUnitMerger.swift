import Foundation
import HarnessCore
import HarnessSteps

/// `harness merge-junit OUT IN...`: one report from the reports of several shards.
///
/// Suites with the same name become one suite (their cases together, sorted by class name,
/// name and file; timestamp and hostname of the first); suites with other names are kept, in
/// order of first appearance. Counts are recomputed, so they are the sums of the inputs'.
public enum JUnitMerger {
    /// The merged report.
    public static func merge(_ reports: [JUnitReport], name: String? = nil) -> JUnitReport {
        var order: [String] = []
        var merged: [String: JUnitTestSuite] = [:]
        for report in reports {
            for suite in report.suites {
                if var existing = merged[suite.name] {
                    existing.cases += suite.cases
                    for property in suite.properties where !existing.properties.contains(property) {
                        existing.properties.append(property)
                    }
                    merged[suite.name] = existing
                } else {
                    order.append(suite.name)
                    merged[suite.name] = suite
                }
            }
        }
        let suites = order.compactMap { merged[$0] }.map { suite -> JUnitTestSuite in
            var sorted = suite
            sorted.cases = suite.cases.sorted {
                ($0.classname, $0.name, $0.file ?? "") < ($1.classname, $1.name, $1.file ?? "")
            }
            return sorted
        }
        return JUnitReport(name: name ?? reports.first?.name ?? "harness", suites: suites)
    }

    /// Reads `inputs`, merges them and writes `output`; returns the merged report.
    @discardableResult
    public static func mergeFiles(output: String, inputs: [String]) throws -> JUnitReport {
        var reports: [JUnitReport] = []
        for input in inputs { reports.append(try JUnitReader.read(path: input)) }
        let report = merge(reports)
        try JUnitWriter.write(report, to: output)
        return report
    }
}
