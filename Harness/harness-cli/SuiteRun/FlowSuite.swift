import Foundation
import HarnessCore
import HarnessFlows

/// The flow files under `harness run`'s PATHS, as a suite source (``SuiteSource``): each case
/// is a flow, named by its path relative to the current folder (with its matrix case,
/// ``FlowMatrix``, and its repetition, ``FlowFile/caseName``); they run on a pool of `jobs`
/// workers (``FlowWorkerPool``), a failed one again up to `retries` times (``FlowCaseSelection``
/// says which run).
struct FlowSuite: SuiteSource {
    /// `harness run`'s own options, before the shared ones (``SuiteRun/options(cases:)``).
    static let options: [CommandOption] = [
        CommandOption(name: "jobs", value: "N", summary: "flows run at once (default: the number of cores)"),
        CommandOption(name: "retries", value: "N", summary: "runs a failed flow up to N more times; one that then passes is flaky"),
        CommandOption(name: "retry-isolated", value: nil,
                      summary: "runs the retries after every flow's first attempt, one at a time on one worker"),
        CommandOption(name: "filter", value: "REGEX", summary: "keeps the flows whose relative path the regex matches"),
    ] + FlowCaseSelection.options + [
        CommandOption(name: "timeout", value: "DURATION", summary: "the waits' limit until a flow's own timeout line (default 10s)"),
        CommandOption(name: "record", value: "missing|failed|all|never",
                      summary: "the snapshot record mode (default: HARNESS_RECORD, else missing, never when CI is set or under Bazel)"),
        CommandOption(name: "watch", value: nil,
                      summary: "after the run, runs again the flows whose file, fixtures or program changed, until interrupted"),
    ]

    let context: SuiteRunContext
    let paths: [String]
    let filter: String?
    let jobs: Int?
    let retries: Int
    let retryIsolated: Bool
    /// Which cases of the flows found run: tags, `--grep`, the matrix, repetitions.
    let selection: FlowCaseSelection
    /// The flows' environment: the command's, with ``ProductsDirectory`` set.
    let environment: [String: String]
    /// Timelines for the report: only with an artifacts folder.
    let traces: FlowTraceCollector?
    let executor: FlowExecutor
    /// The flows found, by relative path, and the parsed scripts of the selected ones.
    private var flows: [String: FlowFile] = [:]
    private var scripts: [String: FlowScript] = [:]

    var caseNoun: String { "flow" }

    /// Reads `harness run`'s own options: PATHS, `--filter`, `--jobs`, `--retries`, `--timeout`,
    /// `--record`, `--trace` and `--gif`.
    init(_ parsed: CommandArguments, context: SuiteRunContext) throws {
        guard !parsed.positional.isEmpty else { throw CommandError.usage("missing PATHS (folders or .flow files)") }
        self.context = context
        paths = parsed.positional
        filter = parsed.value("filter")
        jobs = try parsed.integer("jobs", in: 1...256) ?? ProcessInfo.processInfo.activeProcessorCount
        retries = try parsed.integer("retries", in: 0...100) ?? 0
        retryIsolated = parsed.has("retry-isolated")
        guard !retryIsolated || retries > 0 else { throw CommandError.usage("--retry-isolated runs the retries: it needs --retries N") }
        selection = try FlowCaseSelection(parsed, repeatEach: context.repeatEach)
        let timeout = try parsed.duration("timeout", example: "500ms, 5s, 1.5s, 2m") ?? .seconds(10)
        var record: SnapshotRecordMode?
        if let text = parsed.value("record") {
            guard let mode = SnapshotRecordMode(named: text) else {
                throw CommandError.usage("--record \(text.debugDescription): expected missing, failed, all or never")
            }
            record = mode
        }
        var traceMode = FlowTraceMode.off
        if let text = parsed.value("trace") {
            guard let mode = FlowTraceMode(rawValue: text.lowercased()) else {
                throw CommandError.usage("--trace \(text.debugDescription): expected on, off or retain-on-failure")
            }
            traceMode = mode
        }
        guard context.artifacts != nil || traceMode != .on else {
            throw CommandError.usage("--trace on keeps timelines for the report: it needs --artifacts")
        }
        var environment = context.environment
        if environment[ProductsDirectory.variable]?.isEmpty ?? true {
            environment[ProductsDirectory.variable] = ProductsDirectory.ofThisExecutable()
        }
        self.environment = environment
        traces = context.artifacts == nil ? nil : FlowTraceCollector(mode: traceMode)
        var options = FlowExecutor.Options(
            defaultTimeout: timeout, recordMode: record, artifactsDirectory: context.artifacts, environment: environment, traces: traces,
            stubServers: FlowStubServers.start)
        if parsed.has("gif") {
            guard context.artifacts != nil else { throw CommandError.usage("--gif writes each flow's GIF into the artifacts folder: it needs --artifacts") }
            do { options.gifFont = try UnifontFont.load() } catch { throw CommandError.failure("--gif: \(error)") }
        }
        executor = FlowExecutor(options: options)
    }

    mutating func list() async throws -> [String] {
        let found: [FlowFile]
        do {
            found = try FlowDiscovery.discover(paths, root: context.currentDirectory, filter: filter) { [context] warning in
                HarnessCLI.printError("\(context.command): \(warning)")
            }
        } catch {
            if case .invalidFilter = error { throw CommandError.usage(error.description) }
            throw SuiteSourceError(message: "\(context.command): \(error)", status: 2)
        }
        guard !found.isEmpty else {
            let matching = filter.map { " matching --filter \($0.debugDescription)" } ?? ""
            throw SuiteSourceError(message: "\(context.command): no flows found under \(paths.joined(separator: " "))\(matching)", status: 1)
        }
        let cases = selection.cases(of: found, environment: environment, watched: context.watched)
        guard !cases.isEmpty else {
            throw SuiteSourceError(message: "\(context.command): no flows under \(paths.joined(separator: " ")) \(selection.emptyReason)", status: 1)
        }
        flows = Dictionary(cases.map { ($0.caseName, $0) }, uniquingKeysWith: { first, _ in first })
        return cases.map(\.caseName)
    }

    mutating func prepare(_ selected: [String]) throws {
        do {
            let parsed = try FlowParser.loadAll(selected.compactMap { flows[$0] })
            let dependencies = zip(selected, parsed).map { name, script in
                (name, script.dependencies(flowPath: flows[name]?.path ?? "", environment: environment))
            }
            context.watched?.remember(Dictionary(dependencies, uniquingKeysWith: { first, _ in first }))
            scripts = Dictionary(zip(selected, parsed), uniquingKeysWith: { first, _ in first })
        } catch {
            throw SuiteSourceError(message: error.description, status: 2)
        }
    }

    func snapshotLedgers(for selected: [String]) -> [URL] {
        SnapshotRunLedger.folders(of: selected.compactMap { flows[$0] }, artifacts: context.artifacts, environment: environment)
    }

    func startLines(selected: Int, listed: Int, shard: String) -> [String] {
        let workers = min(jobs ?? 1, max(selected, 1))
        return ["Running \(selected) flow\(selected == 1 ? "" : "s") on \(workers) worker\(workers == 1 ? "" : "s")\(shard)"]
    }

    func run(_ selected: [String], progress: RunProgress, interruption: @escaping @Sendable () -> String) async -> [FlowResult] {
        let (flows, scripts, executor) = (self.flows, self.scripts, self.executor)
        let job: @Sendable (FlowFile, Int) async -> AttemptOutcome = { flow, attempt in
            progress.started(flow.caseName)
            guard let script = scripts[flow.caseName] else { return .failed(FlowFailure(message: "not parsed")) }
            return await executor.run(script, flow: flow, attempt: attempt)
        }
        let files = selected.compactMap { flows[$0] }
        return await FlowWorkerPool(jobs: jobs ?? 1, retries: retries, retriesAlone: retryIsolated).run(
            files, job: job, onFinish: progress.flowFinished, interruption: interruption)
    }

    func recordSnapshots(_ results: [FlowResult]) throws {
        try SnapshotRunLedger.recordFlows(results, artifacts: context.artifacts, environment: environment)
    }

    func report(_ results: [FlowResult], folder: String, startedAt: Date, wallSeconds: Double, shard: String?) throws -> RunReport {
        RunReport(results: results, traces: traces?.traces ?? [:], startedAt: startedAt, wallSeconds: wallSeconds, shard: shard)
    }
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
