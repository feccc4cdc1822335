import Foundation
import HarnessCore
import HarnessFlows

/// The sharded run that `harness run` and `harness swift-test` share, fed by a suite source
/// (``SuiteSource``). In order:
///
/// 1. SIGINT and SIGTERM end the run in order (``RunInterruption``); orphans of its programs
///    are adopted and ended; Bazel's `TEST_TMPDIR` becomes `TMPDIR` (``BazelTestEnvironment``).
/// 2. The shared options: `--shard` (touching Bazel's status file when it took Bazel's shard),
///    `--durations` and `--plan` (both need `--shard`), `--junit`, `--artifacts` (under Bazel
///    inside the undeclared outputs) and `--history`; then the source is made.
/// 3. The source lists its cases (each `--repeat-each` times), `--last-failed` keeps those whose
///    latest run failed (``RunLoopOptions``); the shard's part is chosen (``ShardSelection``); with
///    `listOnly` the names are printed and nothing runs; else the source prepares them and the
///    plan is written into the artifacts folder, before anything runs.
/// 4. The snapshot ledgers start afresh, the cases run under the interruption, with progress
///    lines (``RunProgress``), and the ledgers record what ran.
/// 5. The files (``RunFiles``): JUnit, the history, the report.
///
/// Exit 0 when nothing failed (and, with `--fail-on-flaky`, nothing was flaky), 1 when a case
/// failed or a file could not be written, the source's status when it could not list, 64 for
/// bad usage, 128 + the signal when interrupted.
enum SuiteRun {
    /// The options every sharded run takes; `cases` names what is run (`flows`).
    static func options(cases: String) -> [CommandOption] {
        [
            CommandOption(name: "shard", value: "I/N|auto|auto/N", summary: "runs one shard of the \(cases) (auto: from the CI's or Bazel's variables)"),
            CommandOption(name: "durations", value: "JUNIT-FILE|HISTORY-DIR", summary: "balances the shards by earlier durations (with --shard)"),
            CommandOption(name: "plan", value: "FILE", summary: "splits as an earlier shard's harness-plan.json says (a re-run shard)"),
            CommandOption(name: "junit", value: "FILE", summary: "writes a JUnit report (default under Bazel: XML_OUTPUT_FILE)"),
            CommandOption(name: "artifacts", value: "DIR", summary:
                "what failed \(cases) leave (recordings, screens, traces) and the run report index.html (default under Bazel: TEST_UNDECLARED_OUTPUTS_DIR)"),
            CommandOption(name: "history", value: "DIR", summary: "adds the run to a history folder (flaky over time, the report's strips)"),
        ] + RunLoopOptions.options(cases: cases)
    }

    /// Runs the suite `makeSource` makes from the shared settings; `command` is the command's
    /// name in messages (`harness run`); `listOnly` prints the shard's cases instead of running them.
    /// `harness run --watch` runs it again and again with one `interruption`, and `watched`
    /// (``FlowWatch``).
    static func run<Source: SuiteSource>(
        _ parsed: CommandArguments, command: String, listOnly: Bool = false, interruption: RunInterruption? = nil,
        watched: WatchedFlows? = nil, source makeSource: (SuiteRunContext) throws -> Source
    ) async throws -> Int32 {
        // From here on SIGINT and SIGTERM end the run in order, and daemons of its programs are
        // reparented to this process, which ends them.
        let interruption = try interruption ?? RunInterruption(command: command)
        let loop = try RunLoopOptions(parsed)
        AdoptedChildren.adopt()
        defer { AdoptedChildren.endAll() }
        // Bazel's variables, when Bazel runs this as a test: TMPDIR first, before anything reads it.
        let bazel = BazelTestEnvironment(ProcessInfo.processInfo.environment)
        try bazel.useTemporaryDirectory()
        let environment = ProcessInfo.processInfo.environment
        var shard: FlowShard?
        if let text = parsed.value("shard") {
            do {
                shard = try FlowShard(argument: text, environment: environment)
            } catch {
                throw CommandError.usage(error.description)
            }
            if text.hasPrefix("auto"), FlowShard.autoVariable(in: environment) == FlowShard.bazelIndexVariable {
                try bazel.confirmSharding()
            }
        }
        guard shard != nil || parsed.value("durations") == nil else {
            throw CommandError.usage("--durations balances shards: it needs --shard")
        }
        guard shard != nil || parsed.value("plan") == nil else {
            throw CommandError.usage("--plan splits the suite as an earlier shard did: it needs --shard")
        }
        let currentDirectory = FileManager.default.currentDirectoryPath
        // Under Bazel the current folder is the read-only runfiles tree: what the run writes goes
        // to the undeclared outputs, which Bazel keeps.
        let outputRoot = bazel.undeclaredOutputs ?? currentDirectory
        let junit = parsed.value("junit").map { FlowPaths.join(outputRoot, $0) } ?? bazel.xmlOutputFile
        let artifacts = parsed.value("artifacts").map { FlowPaths.join(outputRoot, $0) } ?? bazel.undeclaredOutputs
        let history = parsed.value("history").map { FlowHistory(directory: FlowPaths.join(currentDirectory, $0)) }
        var source = try makeSource(SuiteRunContext(
            command: command, currentDirectory: currentDirectory, environment: environment, artifacts: artifacts,
            repeatEach: loop.repeatEach, watched: watched))
        defer { source.cleanUp() }
        let startDate = Date()

        // Every case is found before anything runs.
        let listed: [String]
        let selection: ShardSelection
        do {
            listed = try loop.selecting(try await source.list(), history: history, artifacts: artifacts, command: command)
            guard !listed.isEmpty else {
                HarnessCLI.printLine("No \(source.caseNoun) failed in the last run: nothing to run (--last-failed)")
                return 0
            }
            selection = try ShardSelection(
                command: command, names: listed, shard: shard,
                durationsPath: parsed.value("durations").map { FlowPaths.join(currentDirectory, $0) },
                planPath: parsed.value("plan").map { FlowPaths.join(currentDirectory, $0) },
                loadDurations: { [source] in try source.durations(from: $0, for: listed) })
        } catch let error as SuiteSourceError {
            HarnessCLI.printError(error.message)
            return error.status
        } catch let error as ShardSelectionError {
            HarnessCLI.printError("\(command): \(error)")
            return 2
        }
        let selected = listed.filter(selection.plan.isMine)
        // An empty shard of a non-empty plan is fine (more shards than cases, or a skewed split).
        let emptyShard = selected.isEmpty ? shard.map { source.emptyShardLine($0, listed: listed.count) } : nil
        if listOnly {
            for name in selected { HarnessCLI.printLine(name) }
            if let emptyShard { HarnessCLI.printError(emptyShard) }
            return 0
        }
        do {
            try source.prepare(selected)
        } catch let error as SuiteSourceError {
            HarnessCLI.printError(error.message)
            return error.status
        }
        // The plan goes into the folder first, so that merge-reports can prove the run whole.
        let planWritten = RunFiles.writePlan(selection.plan, command: command, artifacts: artifacts)

        let clock = ContinuousClock()
        let started = clock.now
        // The snapshot ledgers describe this run (docs/SNAPSHOTS.md, "Lifecycle").
        SnapshotRunLedger.start(source.snapshotLedgers(for: selected))
        let shardText = shard.map { ", shard \($0)\(selection.note)" } ?? ""
        for line in source.startLines(selected: selected.count, listed: listed.count, shard: shardText) { HarnessCLI.printLine(line) }
        if let emptyShard { HarnessCLI.printLine(emptyShard) }
        // Places `[i/n]`, and on a terminal a live status line estimated from earlier durations.
        let progress = RunProgress(
            names: selected, workers: min(source.jobs ?? 1, max(selected.count, 1)),
            durations: selection.durations.isEmpty ? (try? history?.latestDurations()) ?? [:] : selection.durations,
            terminal: source.jobs != nil && UserTerminal.isTerminal(1))
        let ready = source
        let results = selected.isEmpty ? [] : await interruption.run {
            await ready.run(selected, progress: progress, interruption: { interruption.reason })
        }
        progress.stop()

        var status = FlowRunSummary(results).exitCode
        let flaky = results.filter { $0.status == .flaky }
        if loop.failOnFlaky, !flaky.isEmpty {
            HarnessCLI.printError("\(command): --fail-on-flaky: \(flaky.count) flaky \(source.caseNoun)\(flaky.count == 1 ? "" : "s") (\(flaky.map(\.path).joined(separator: ", ")))")
            status = 1
        }
        do {
            try source.recordSnapshots(results)
        } catch {
            HarnessCLI.printError("\(command): \(error)")
            status = 1
        }
        let wallSeconds = (clock.now - started).flowReportSeconds
        let files = RunFiles(command: command, junit: junit, history: history, artifacts: artifacts)
        let (written, page) = files.write(
            results, junitReport: JUnitReport(
                results: results, suiteName: source.junitSuiteName, failureType: source.junitFailureType, timestamp: startDate),
            startDate: startDate, shard: shard?.description
        ) { folder in
            try source.report(results, folder: folder, startedAt: startDate, wallSeconds: wallSeconds, shard: shard?.description)
                .attachingSnapshotChanges(from: folder, currentDirectory: currentDirectory)
        }
        if !written || !planWritten { status = 1 }
        if let page {
            HarnessCLI.printLine("Artifacts: \(page)")
            bazel.printKeptOutputs(for: page)
        }
        progress.runFinished(results)
        return interruption.exitStatus ?? status
    }
}

extension Duration {
    /// The duration in seconds (for the report).
    var flowReportSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
