import Foundation
import HarnessCore
import HarnessFlows
import TerminalEmulator

/// `harness merge-reports OUT DIR... [--junit FILE] [--history DIR] [--title TEXT]`: one report
/// from the `--artifacts` folders of several shards, as Playwright's merge-reports does:
/// `OUT/index.html`, `OUT/results.json` and `OUT/junit.xml` (or `--junit FILE`), each shard's
/// files copied under `OUT/<its folder name>/` so every link stays valid, and with `--history`
/// one history entry for the whole run (the page then shows each flow's history strip).
///
/// The merge proves the run whole: each shard's folder holds its plan (``FlowRunPlan``: its
/// shard, the number of shards and every planned name), and ``RunCompleteness`` checks that
/// every shard of every plan is there with a report, that every planned flow ran in exactly one
/// shard and that the shards split the suite alike. When not, it names what is missing or
/// doubled and exits 1 without writing anything; with `--allow-partial` it writes the report
/// of what arrived, marked incomplete on the page and in the JUnit (a failing test case), and
/// still exits 1. A folder without a plan or a readable `results.json` is left out with a
/// message (exit 1); a folder with a report but no plan (an older harness) is merged unchecked.
/// Otherwise the exit status is 0, whatever the flows' results.
///
/// Shard folders are untrusted input (they come from jobs that ran the code under test):
/// symbolic links and anything that leads out of a shard are skipped with a warning, artifact
/// paths that leave the shard are no links, and an OUT that is, holds or lies inside a shard
/// folder is refused before anything is written (``refuseOverlap(output:inputs:names:shownOutput:)``).
enum MergeReportsCommand: Command {
    static let name = "merge-reports"
    static let operands = "OUT DIR..."
    static let summary = "merge the shards' --artifacts folders into one report in OUT"
    static let options: [CommandOption] = [
        CommandOption(name: "junit", value: "FILE", summary: "the merged JUnit report (default: OUT/junit.xml)"),
        CommandOption(name: "history", value: "DIR", summary: "adds the whole run to a history folder"),
        CommandOption(name: "title", value: "TEXT", summary: "the report's title (default: Swift tests when every shard ran Swift tests, else Flow run)"),
        CommandOption(name: "allow-partial", value: nil,
                      summary: "writes the report even when shards or flows are missing, marked incomplete (exit status 1)"),
    ]

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try parse(arguments)
        guard parsed.positional.count >= 2 else { throw CommandError.usage("expected OUT and at least one shard folder DIR") }
        let currentDirectory = FileManager.default.currentDirectoryPath
        let output = FlowPaths.join(currentDirectory, parsed.positional[0])
        let given = Array(parsed.positional.dropFirst())
        let inputs = given.map { FlowPaths.join(currentDirectory, $0) }
        // Messages name the folders as given.
        let names = Dictionary(zip(inputs, given), uniquingKeysWith: { first, _ in first })
        try refuseOverlap(output: output, inputs: inputs, names: names, shownOutput: parsed.positional[0])

        // Read every folder first: their plans and reports prove the run whole, or not.
        var found: [(input: String, report: RunReport?, plan: FlowRunPlan?)] = []
        var unreadable: [String] = []
        for input in inputs {
            let linked = linkedReportFiles(in: input)
            guard linked.isEmpty else {
                // A report file that is a link would bring in whatever it points to.
                HarnessCLI.printError("harness merge-reports: left out \(input): \(linked.joined(separator: ", ")) "
                                      + "\(linked.count == 1 ? "is a symbolic link" : "are symbolic links") (shard folders are untrusted)")
                unreadable.append(input)
                continue
            }
            let plan: FlowRunPlan?
            do {
                plan = try FlowRunPlan.read(folder: input)
            } catch {
                throw CommandError.failure("\(error)")
            }
            do {
                found.append((input, try RunReportWriter.read(folder: input), plan))
            } catch {
                // A shard that crashed left no report: merge the others, say so, exit 1.
                HarnessCLI.printError("harness merge-reports: left out \(input): \(error)")
                if plan == nil { unreadable.append(input) } else { found.append((input, nil, plan)) }
            }
        }
        // A case of a parameterized Swift test ran as part of its test, the name the plan holds.
        let check = RunCompleteness(found.map { part in
            .init(folder: names[part.input] ?? part.input, plan: part.plan, ran: part.report?.flows.map { $0.parentTest ?? $0.path })
        })
        for folder in check.unchecked {
            HarnessCLI.printError("harness merge-reports: \(folder) holds no \(FlowRunPlan.fileName) (not written by harness run "
                                  + "or swift-test --artifacts, or by an older harness): merged without a completeness check")
        }
        if !check.isComplete {
            HarnessCLI.printError("harness merge-reports: the run is incomplete:\n" + check.problems.map { "  - " + $0 }.joined(separator: "\n"))
            guard parsed.has("allow-partial") else {
                HarnessCLI.printError("harness merge-reports: nothing written; --allow-partial writes the report of what arrived, marked incomplete")
                return 1
            }
        }

        var parts: [(report: RunReport, prefix: String)] = []
        var usedNames: Set<String> = []
        for (input, read, _) in found {
            guard let report = read else { continue }
            var prefix = URL(fileURLWithPath: input).lastPathComponent
            if prefix.isEmpty || prefix == "." { prefix = "shard" }
            var unique = prefix, number = 2
            while !usedNames.insert(unique).inserted {
                unique = "\(prefix)-\(number)"
                number += 1
            }
            do {
                try copyArtifacts(from: input, shownAs: names[input] ?? input, to: FlowPaths.join(output, unique)) { warning in
                    HarnessCLI.printError("harness merge-reports: warning: \(warning)")
                }
            } catch {
                throw CommandError.failure("cannot copy \(input) into \(output): \(error.localizedDescription)")
            }
            // Links to the shard's files stay inside its folder.
            let kept = report.keepingArtifactLinksInside()
            for path in kept.dropped {
                HarnessCLI.printError("harness merge-reports: warning: \(names[input] ?? input): no link to \(path): "
                                      + "an artifact path must be relative and stay inside the shard folder")
            }
            parts.append((kept.report, unique))
        }
        guard !parts.isEmpty else { throw CommandError.failure("no shard folder holds a results.json") }
        var report = RunReport.merged(parts, title: "")
        let tests = report.caseKind == .tests
        report.title = parsed.value("title") ?? (tests ? "Swift tests" : "Flow run")
        if !check.isComplete { report.incomplete = check.problems }
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
            var junitReport = tests
                ? JUnitReport(results: results, suiteName: SwiftTestSuite.junitSuiteName, failureType: SwiftTestSuite.junitFailureType,
                              timestamp: report.startedAt ?? Date())
                : JUnitReport(results: results, timestamp: report.startedAt ?? Date())
            if !check.isComplete { junitReport = junitReport.markedIncomplete(check.problems) }
            try JUnitWriter.write(junitReport, to: junit)
            let incomplete = check.isComplete ? "" : " (INCOMPLETE: \(check.problems.count) problem\(check.problems.count == 1 ? "" : "s") above)"
            HarnessCLI.printLine("Merged \(parts.count) report\(parts.count == 1 ? "" : "s"): \(report.summary)\(incomplete)")
            HarnessCLI.printLine("Report: \(page)")
            HarnessCLI.printLine("JUnit: \(junit)")
        } catch {
            throw CommandError.failure("cannot write the report in \(output): \(error.localizedDescription)")
        }
        return unreadable.isEmpty && check.isComplete ? 0 : 1
    }
}
