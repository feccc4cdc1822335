import Foundation
import HarnessCore
import HarnessFlows
import TerminalEmulator

/// `harness merge-reports OUT DIR... [--junit FILE] [--history DIR] [--title TEXT]`: one report
/// from the `--artifacts` folders of several shards, as Playwright's merge-reports does:
/// `OUT/index.html`, `OUT/results.json` and `OUT/junit.xml` (or `--junit FILE`), each shard's
/// files copied under `OUT/<its folder name>/` so every link stays valid, and with `--history`
/// one history entry for the whole run (the page then shows each flow's history strip).
/// A folder without a readable `results.json` (a shard that crashed) is left out with a
/// message, and the exit status is then 1; 0 otherwise, whatever the flows' results.
enum MergeReportsCommand: Command {
    static let name = "merge-reports"
    static let operands = "OUT DIR..."
    static let summary = "merge the shards' --artifacts folders into one report in OUT"
    static let options: [CommandOption] = [
        CommandOption(name: "junit", value: "FILE", summary: "the merged JUnit report (default: OUT/junit.xml)"),
        CommandOption(name: "history", value: "DIR", summary: "adds the whole run to a history folder"),
        CommandOption(name: "title", value: "TEXT", summary: "the report's title (default: Flow run)"),
    ]

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try parse(arguments)
        guard parsed.positional.count >= 2 else { throw CommandError.usage("expected OUT and at least one shard folder DIR") }
        let currentDirectory = FileManager.default.currentDirectoryPath
        let output = FlowPaths.join(currentDirectory, parsed.positional[0])
        let inputs = parsed.positional.dropFirst().map { FlowPaths.join(currentDirectory, $0) }
        if inputs.contains(output) { throw CommandError.usage("OUT must not be one of the shard folders") }

        var parts: [(report: RunReport, prefix: String)] = []
        var usedNames: Set<String> = []
        var unreadable: [String] = []
        for input in inputs {
            let report: RunReport
            do {
                report = try RunReportWriter.read(folder: input)
            } catch {
                // A shard that crashed left no report: merge the others, say so, exit 1.
                HarnessCLI.printError("harness merge-reports: left out \(input): \(error)")
                unreadable.append(input)
                continue
            }
            var prefix = URL(fileURLWithPath: input).lastPathComponent
            if prefix.isEmpty || prefix == "." { prefix = "shard" }
            var unique = prefix, number = 2
            while !usedNames.insert(unique).inserted {
                unique = "\(prefix)-\(number)"
                number += 1
            }
            do {
                try copyArtifacts(from: input, to: FlowPaths.join(output, unique))
            } catch {
                throw CommandError.failure("cannot copy \(input) into \(output): \(error.localizedDescription)")
            }
            parts.append((report, unique))
        }
        guard !parts.isEmpty else { throw CommandError.failure("no shard folder holds a results.json") }
        var report = RunReport.merged(parts, title: parsed.value("title") ?? "Flow run")
        let results = report.results
        if let directory = parsed.value("history") {
            let history = FlowHistory(directory: FlowPaths.join(currentDirectory, directory))
            do {
                try history.append(FlowHistory.Run(results: results, date: report.startedAt ?? Date()))
                report.attachHistory(try history.runs())
            } catch {
                throw CommandError.failure("history \(history.directory): \(error)")
            }
        }
        let junit = parsed.value("junit").map { FlowPaths.join(currentDirectory, $0) } ?? FlowPaths.join(output, "junit.xml")
        do {
            let page = try RunReportWriter.write(report, toFolder: output)
            try JUnitWriter.write(JUnitReport(results: results, timestamp: report.startedAt ?? Date()), to: junit)
            HarnessCLI.printLine("Merged \(parts.count) report\(parts.count == 1 ? "" : "s"): \(report.summary)")
            HarnessCLI.printLine("Report: \(page)")
            HarnessCLI.printLine("JUnit: \(junit)")
        } catch {
            throw CommandError.failure("cannot write the report in \(output): \(error.localizedDescription)")
        }
        return unreadable.isEmpty ? 0 : 1
    }

    /// Copies a shard's folder into `destination` (replaced), leaving out its own report files.
    static func copyArtifacts(from source: String, to destination: String) throws {
        let manager = FileManager.default
        if manager.fileExists(atPath: destination) { try manager.removeItem(atPath: destination) }
        try manager.createDirectory(atPath: destination, withIntermediateDirectories: true)
        let skipped: Set<String> = [RunReportWriter.pageName, RunReportWriter.resultsName]
        for name in try manager.contentsOfDirectory(atPath: source) where !skipped.contains(name) {
            try manager.copyItem(atPath: FlowPaths.join(source, name), toPath: FlowPaths.join(destination, name))
        }
    }
}
