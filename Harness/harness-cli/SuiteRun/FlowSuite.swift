import Foundation
import HarnessCore
import HarnessFlows

/// The flow files under `harness run`'s PATHS, as a suite source (``SuiteSource``): each case
/// is a flow, named by its path relative to the current folder; they run on a pool of `jobs`
/// workers (``FlowWorkerPool``), a failed one again up to `retries` times.
struct FlowSuite: SuiteSource {
    let context: SuiteRunContext
    let paths: [String]
    let filter: String?
    let jobs: Int?
    let retries: Int
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
    /// `--record` and `--trace`.
    init(_ parsed: CommandArguments, context: SuiteRunContext) throws {
        guard !parsed.positional.isEmpty else { throw CommandError.usage("missing PATHS (folders or .flow files)") }
        self.context = context
        paths = parsed.positional
        filter = parsed.value("filter")
        jobs = try parsed.integer("jobs", in: 1...256) ?? ProcessInfo.processInfo.activeProcessorCount
        retries = try parsed.integer("retries", in: 0...100) ?? 0
        let timeout = try parsed.duration("timeout", example: "500ms, 5s, 1.5s, 2m") ?? .seconds(10)
        var record: SnapshotRecordMode?
        if let text = parsed.value("record") {
            guard let mode = SnapshotRecordMode(rawValue: text.lowercased()) else {
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
        executor = FlowExecutor(options: .init(
            defaultTimeout: timeout, recordMode: record, artifactsDirectory: context.artifacts, environment: environment, traces: traces,
            stubServers: FlowStubServers.start))
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
        flows = Dictionary(found.map { ($0.relativePath, $0) }, uniquingKeysWith: { first, _ in first })
        return found.map(\.relativePath)
    }

    mutating func prepare(_ selected: [String]) throws {
        do {
            let parsed = try FlowParser.loadAll(selected.compactMap { flows[$0] })
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
        return await FlowWorkerPool(jobs: jobs ?? 1, retries: retries).run(selected.compactMap { flows[$0] }, job: { flow, attempt in
            progress.started(flow.relativePath)
            guard let script = scripts[flow.relativePath] else { return .failed(FlowFailure(message: "not parsed")) }
            return await executor.run(script, flow: flow, attempt: attempt)
        }, onFinish: progress.flowFinished, interruption: interruption)
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
