import Foundation
import HarnessCore
import HarnessFlows
import HarnessSystem

/// `harness run PATHS... [options]`: discovers, parses and runs flows; prints a line per flow
/// and a summary; writes JUnit and artifacts. Exit 0 when nothing failed, 1 when a flow
/// failed or no flow was found, 2 when a path does not exist or flows could not be parsed
/// (nothing ran), 64 for bad usage, 130 or 143 when SIGINT or SIGTERM interrupted it (after
/// writing the files of what finished: ``RunInterruption``). Under Bazel it follows the test protocol
/// (``BazelTestEnvironment``); `--list` prints the flows instead of running them.
enum RunCommand: Command {
    static let name = "run"
    static let operands = "PATHS..."
    static let summary = "run the .flow files under PATHS (folders or files)"
    static let options: [CommandOption] = [
        CommandOption(name: "jobs", value: "N", summary: "flows run at once (default: the number of cores)"),
        CommandOption(name: "retries", value: "N", summary: "runs a failed flow up to N more times; one that then passes is flaky"),
        CommandOption(name: "filter", value: "REGEX", summary: "keeps the flows whose relative path the regex matches"),
        CommandOption(name: "timeout", value: "DURATION", summary: "the waits' limit until a flow's own timeout line (default 10s)"),
        CommandOption(name: "record", value: "missing|failed|all|never",
                      summary: "the snapshot record mode (default: HARNESS_RECORD, else missing, never when CI is set or under Bazel)"),
        CommandOption(name: "junit", value: "FILE", summary: "writes a JUnit report (default under Bazel: XML_OUTPUT_FILE)"),
        CommandOption(name: "artifacts", value: "DIR",
                      summary: "failed flows' recordings and screens, and the run report index.html (default under Bazel: TEST_UNDECLARED_OUTPUTS_DIR)"),
        CommandOption(name: "shard", value: "I/N|auto|auto/N", summary: "runs one shard of the flows (auto: from the CI's or Bazel's variables)"),
        CommandOption(name: "durations", value: "JUNIT-FILE|HISTORY-DIR", summary: "balances the shards by earlier durations (with --shard)"),
        CommandOption(name: "plan", value: "FILE", summary: "splits as an earlier shard's harness-plan.json says (a re-run shard)"),
        CommandOption(name: "history", value: "DIR", summary: "adds the run to a history folder (flaky over time, the report's strips)"),
        CommandOption(name: "trace", value: "on|off|retain-on-failure",
                      summary: "on: every flow's timeline and recording in --artifacts; off (default): failed and flaky ones"),
        CommandOption(name: "list", value: nil,
                      summary: "prints the flows the run would run (after --filter, --shard, --durations), one path a line; runs nothing"),
    ]

    /// After the options, `harness run --help` lists every command of a flow file (the keyword table).
    static var helpDetails: String { "Commands of a .flow file (docs/FLOWS.md):\n\(FlowKeyword.commandList)" }

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try parse(arguments)
        // From here on SIGINT and SIGTERM end the run in order, and daemons of its programs are
        // reparented to this process, which ends them.
        let interruption = try RunInterruption(command: "harness run")
        AdoptedChildren.adopt()
        defer { AdoptedChildren.endAll() }
        // Bazel's variables, when Bazel runs this as a test: TMPDIR first, before anything reads it.
        let bazel = BazelTestEnvironment(ProcessInfo.processInfo.environment)
        try bazel.useTemporaryDirectory()
        guard !parsed.positional.isEmpty else { throw CommandError.usage("missing PATHS (folders or .flow files)") }
        let jobs = try parsed.integer("jobs", in: 1...256) ?? ProcessInfo.processInfo.activeProcessorCount
        let retries = try parsed.integer("retries", in: 0...100) ?? 0
        var timeout = Duration.seconds(10)
        if let text = parsed.value("timeout") {
            guard let duration = FlowDurationParser.parse(text), duration > .zero else {
                throw CommandError.usage("--timeout \(text.debugDescription): expected a duration such as 500ms, 5s, 1.5s, 2m")
            }
            timeout = duration
        }
        var record: SnapshotRecordMode?
        if let text = parsed.value("record") {
            guard let mode = SnapshotRecordMode(rawValue: text.lowercased()) else {
                throw CommandError.usage("--record \(text.debugDescription): expected missing, failed, all or never")
            }
            record = mode
        }
        var shard: FlowShard?
        if let text = parsed.value("shard") {
            let environment = ProcessInfo.processInfo.environment
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
        var traceMode = FlowTraceMode.off
        if let text = parsed.value("trace") {
            guard let mode = FlowTraceMode(rawValue: text.lowercased()) else {
                throw CommandError.usage("--trace \(text.debugDescription): expected on, off or retain-on-failure")
            }
            traceMode = mode
        }
        guard parsed.value("artifacts") != nil || bazel.undeclaredOutputs != nil || traceMode != .on else {
            throw CommandError.usage("--trace on keeps timelines for the report: it needs --artifacts")
        }
        let currentDirectory = FileManager.default.currentDirectoryPath
        // Under Bazel the current folder is the read-only runfiles tree: what the run writes goes
        // to the undeclared outputs, which Bazel keeps.
        let outputRoot = bazel.undeclaredOutputs ?? currentDirectory
        let junit = parsed.value("junit").map { FlowPaths.join(outputRoot, $0) } ?? bazel.xmlOutputFile
        let artifacts = parsed.value("artifacts").map { FlowPaths.join(outputRoot, $0) } ?? bazel.undeclaredOutputs
        let history = parsed.value("history").map { FlowHistory(directory: FlowPaths.join(currentDirectory, $0)) }
        let startDate = Date()

        // Discover and parse everything before anything runs.
        var flows: [FlowFile]
        do {
            flows = try FlowDiscovery.discover(parsed.positional, root: currentDirectory, filter: parsed.value("filter")) { warning in
                HarnessCLI.printError("harness run: \(warning)")
            }
        } catch {
            if case .invalidFilter = error { throw CommandError.usage(error.description) }
            HarnessCLI.printError("harness run: \(error)")
            return 2
        }
        // A run that finds nothing to run has tested nothing: it must not pass.
        guard !flows.isEmpty else {
            let filter = parsed.value("filter").map { " matching --filter \($0.debugDescription)" } ?? ""
            HarnessCLI.printError("harness run: no flows found under \(parsed.positional.joined(separator: " "))\(filter)")
            return 1
        }
        let planned = flows.count
        let selection: ShardSelection
        do {
            selection = try ShardSelection(
                command: "harness run", names: flows.map(\.relativePath), shard: shard,
                durationsPath: parsed.value("durations").map { FlowPaths.join(currentDirectory, $0) },
                planPath: parsed.value("plan").map { FlowPaths.join(currentDirectory, $0) },
                loadDurations: { try FlowDurations.load(path: $0) })
        } catch {
            HarnessCLI.printError("harness run: \(error)")
            return 2
        }
        flows = flows.filter { selection.plan.isMine($0.relativePath) }
        let balance = selection.note
        // An empty shard of a non-empty plan is fine (more shards than flows, or a skewed split).
        let emptyShard = shard.map { "Shard \($0) is empty: the \(planned) flow\(planned == 1 ? "" : "s") found belong\(planned == 1 ? "s" : "") to other shards" }
        if parsed.has("list") {
            for flow in flows { HarnessCLI.printLine(flow.relativePath) }
            if flows.isEmpty, let emptyShard { HarnessCLI.printError(emptyShard) }
            return 0
        }
        let scripts: [FlowScript]
        do {
            scripts = try FlowParser.loadAll(flows)
        } catch {
            HarnessCLI.printError(error.description)
            return 2
        }
        let scriptsByPath = Dictionary(uniqueKeysWithValues: zip(flows.map(\.relativePath), scripts))
        // The plan goes into the folder first, so that merge-reports can prove the run whole.
        let planWritten = RunFiles.writePlan(selection.plan, command: "harness run", artifacts: artifacts)

        var environment = ProcessInfo.processInfo.environment
        if environment[ProductsDirectory.variable]?.isEmpty ?? true {
            environment[ProductsDirectory.variable] = ProductsDirectory.ofThisExecutable()
        }
        // Timelines are only for the report: without --artifacts nothing is traced.
        let traces = artifacts == nil ? nil : FlowTraceCollector(mode: traceMode)
        let executor = FlowExecutor(options: .init(
            defaultTimeout: timeout, recordMode: record, artifactsDirectory: artifacts, environment: environment, traces: traces))
        let clock = ContinuousClock()
        let started = clock.now
        // The snapshot ledgers describe this run (docs/SNAPSHOTS.md, "Lifecycle").
        SnapshotRunLedger.start(SnapshotRunLedger.folders(of: flows, artifacts: artifacts, environment: environment))

        let workers = min(jobs, max(flows.count, 1))
        let shardText = shard.map { ", shard \($0)\(balance)" } ?? ""
        HarnessCLI.printLine("Running \(flows.count) flow\(flows.count == 1 ? "" : "s") on \(workers) worker\(workers == 1 ? "" : "s")\(shardText)")
        if flows.isEmpty, let emptyShard { HarnessCLI.printLine(emptyShard) }
        // Places `[i/n]`, and on a terminal a live status line estimated from earlier durations.
        let reporter = RunProgress(
            names: flows.map(\.relativePath), workers: workers,
            durations: selection.durations.isEmpty ? (try? history?.latestDurations()) ?? [:] : selection.durations,
            terminal: UserTerminal.isTerminal(1))
        let pool = FlowWorkerPool(jobs: jobs, retries: retries)
        let selected = flows
        let results = await interruption.run {
            await pool.run(selected, job: { flow, attempt in
                reporter.started(flow.relativePath)
                guard let script = scriptsByPath[flow.relativePath] else {
                    return .failed(FlowFailure(message: "not parsed"))
                }
                return await executor.run(script, flow: flow, attempt: attempt)
            }, onFinish: reporter.flowFinished, interruption: { interruption.reason })
        }
        reporter.stop()

        var status = FlowRunSummary(results).exitCode
        do {
            try SnapshotRunLedger.recordFlows(results, artifacts: artifacts, environment: environment)
        } catch {
            HarnessCLI.printError("harness run: \(error)")
            status = 1
        }
        let wallSeconds = (clock.now - started).flowReportSeconds
        let files = RunFiles(command: "harness run", junit: junit, history: history, artifacts: artifacts)
        let (written, indexPath) = files.write(
            results, junitReport: JUnitReport(results: results, timestamp: Date()), startDate: startDate,
            shard: shard?.description
        ) { folder in
            RunReport(results: results, traces: traces?.traces ?? [:], startedAt: startDate, wallSeconds: wallSeconds,
                      shard: shard?.description).attachingSnapshotChanges(from: folder, currentDirectory: currentDirectory)
        }
        if !written || !planWritten { status = 1 }
        if let indexPath {
            HarnessCLI.printLine("Artifacts: \(indexPath)")
            bazel.printKeptOutputs(for: indexPath)
        }
        reporter.runFinished(results)
        return interruption.exitStatus ?? status
    }
}

extension Duration {
    /// The duration in seconds (for the report).
    var flowReportSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// `HARNESS_PRODUCTS_DIR`: the folder of the package's built executables, which flows name as
/// `app ${HARNESS_PRODUCTS_DIR}/todo`. `harness run` sets it to its own folder when unset:
/// SwiftPM builds `harness` and `todo` into the same one.
enum ProductsDirectory {
    static let variable = "HARNESS_PRODUCTS_DIR"

    /// The folder holding the running executable (symbolic links resolved).
    static func ofThisExecutable() -> String {
        let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        return executable.resolvingSymlinksInPath().deletingLastPathComponent().path
    }
}
