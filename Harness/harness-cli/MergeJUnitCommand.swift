import Foundation
import HarnessFlows

/// `harness merge-junit OUT IN...`: merges the JUnit reports of several shards into one.
enum MergeJUnitCommand: Command {
    static let name = "merge-junit"
    static let operands = "OUT IN..."
    static let summary = "merge JUnit reports (e.g. of shards) into OUT"
    static let options: [CommandOption] = []

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try parse(arguments)
        guard parsed.positional.count >= 2 else { throw CommandError.usage("expected OUT and at least one IN") }
        let output = parsed.positional[0]
        let inputs = Array(parsed.positional.dropFirst())
        let report: JUnitReport
        do {
            report = try JUnitMerger.mergeFiles(output: output, inputs: inputs)
        } catch {
            throw CommandError.failure("\(error)")
        }
        var line = "Merged \(inputs.count) report\(inputs.count == 1 ? "" : "s") into \(output): "
        line += "\(report.tests) tests, \(report.failures) failures"
        if report.errors > 0 { line += ", \(report.errors) errors" }
        if report.flaky > 0 { line += ", \(report.flaky) flaky" }
        if report.skipped > 0 { line += ", \(report.skipped) skipped" }
        HarnessCLI.printLine(line)
        return 0
    }
}
