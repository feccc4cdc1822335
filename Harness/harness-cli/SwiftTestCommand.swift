import Foundation
import HarnessCore
import HarnessFlows

/// `harness swift-test [options] [-- SWIFT-TEST-ARGUMENTS...]`: one shard of a Swift package's
/// tests, with the same shards, JUnit, history and report folder as `harness run`, so that
/// `harness merge-reports` merges Swift shards and flow shards into one report.
///
/// Lists the tests (`swift test list` in `--package-path`), narrows them by the `--filter` and
/// `--skip` given after `--`, takes this shard's part with the flows' planner (`--shard`,
/// `--durations`), runs exactly those (`swift test --filter` with anchored patterns, several
/// runs when a command line would be too long), reads the xUnit files (`FILE` and Swift
/// Testing's `FILE-swift-testing.xml`) and Swift Testing's event stream, and prints a line per
/// test. Each test is named as `swift test list` names it: `Module.Suite/test()`.
///
/// Exit 0 when nothing failed (also when this shard's part is empty), 1 when a test failed or
/// when the package has no tests or the filters leave none, 2 when the tests could not be
/// listed or `--durations` read, 64 for bad usage, 130 or 143 when SIGINT or SIGTERM interrupted
/// it (after writing the files of the tests that finished: ``RunInterruption``). Under Bazel it follows the test protocol as
/// `harness run` does (``BazelTestEnvironment``).
enum SwiftTestCommand: Command {
    static let name = "swift-test"
    static let operands = ""
    static let trailingOperands = "[-- SWIFT-TEST-ARGUMENTS...]"
    static let summary = """
        run one shard of a Swift package's tests (swift test);
        `swift` is --swift, else $HARNESS_SWIFT, else swift in PATH
        """
    static let options: [CommandOption] = [
        CommandOption(name: "package-path", value: "DIR", summary: "the package (default: the current folder)"),
        CommandOption(name: "swift", value: "PATH", summary: "the swift executable (default: $HARNESS_SWIFT, else swift in PATH)"),
        CommandOption(name: "shard", value: "I/N|auto|auto/N", summary: "runs one shard of the tests (auto: from the CI's variables)"),
        CommandOption(name: "durations", value: "JUNIT-FILE|HISTORY-DIR", summary: "balances the shards by earlier durations (with --shard)"),
        CommandOption(name: "plan", value: "FILE", summary: "splits as an earlier shard's harness-plan.json says (a re-run shard)"),
        CommandOption(name: "junit", value: "FILE", summary: "writes a JUnit report"),
        CommandOption(name: "artifacts", value: "DIR", summary: "writes the run report index.html there"),
        CommandOption(name: "history", value: "DIR", summary: "adds the run to a history folder"),
        CommandOption(name: "timeout", value: "DURATION", summary: "ends swift test after this long (default: no limit)"),
    ]

    /// The variable naming the `swift` executable when `--swift` is not given.
    static let swiftVariable = "HARNESS_SWIFT"

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try parse(arguments)
        // SIGINT and SIGTERM end the run in order; orphans of the tests' programs come to this process.
        let interruption = try RunInterruption(command: "harness swift-test")
        AdoptedChildren.adopt()
        defer { AdoptedChildren.endAll() }
        // Bazel's test protocol, as `harness run` follows it: TMPDIR first.
        let bazel = BazelTestEnvironment(ProcessInfo.processInfo.environment)
        try bazel.useTemporaryDirectory()
        guard parsed.positional.isEmpty else {
            throw CommandError.usage("unexpected \(parsed.positional[0].debugDescription): swift test's own arguments go after --")
        }
        let swiftArguments: SwiftTestArguments
        do {
            swiftArguments = try SwiftTestArguments(parsed.afterSeparator ?? [])
        } catch {
            throw CommandError.usage(error.description)
        }
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
        var timeout: Duration?
        if let text = parsed.value("timeout") {
            guard let duration = FlowDurationParser.parse(text), duration > .zero else {
                throw CommandError.usage("--timeout \(text.debugDescription): expected a duration such as 90s or 30m")
            }
            timeout = duration
        }
        let currentDirectory = FileManager.default.currentDirectoryPath
        let packageDirectory = FlowPaths.join(currentDirectory, parsed.value("package-path") ?? ".")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: packageDirectory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandError.usage("--package-path \(packageDirectory): no such folder")
        }
        let swift = parsed.value("swift") ?? environment[swiftVariable].flatMap { $0.isEmpty ? nil : $0 } ?? "swift"
        // Under Bazel what the run writes goes to the undeclared outputs, which Bazel keeps.
        let outputRoot = bazel.undeclaredOutputs ?? currentDirectory
        let junit = parsed.value("junit").map { FlowPaths.join(outputRoot, $0) } ?? bazel.xmlOutputFile
        let artifacts = parsed.value("artifacts").map { FlowPaths.join(outputRoot, $0) } ?? bazel.undeclaredOutputs
        let history = parsed.value("history").map { FlowHistory(directory: FlowPaths.join(currentDirectory, $0)) }
        let startDate = Date()

        // swift's files go to the shard's folder (merge-reports copies them along), else to a
        // temporary folder removed at the end.
        let temporary = artifacts == nil
            ? FileManager.default.temporaryDirectory.appendingPathComponent("harness-swift-test-\(UUID().uuidString)").path : nil
        defer { if let temporary { try? FileManager.default.removeItem(atPath: temporary) } }
        let shardRun = SwiftTestShardRun(options: .init(
            swift: swift, packageDirectory: packageDirectory, arguments: swiftArguments,
            workDirectory: artifacts.map { FlowPaths.join($0, "swift-test") } ?? temporary ?? "",
            artifactsDirectory: artifacts, environment: environment, timeout: timeout,
            echo: { stream, bytes in
                StandardStreams.write(bytes, to: stream == .standardError ? 2 : 1)
            }))

        let listed: [String]
        do {
            listed = try await shardRun.list()
        } catch {
            HarnessCLI.printError("harness swift-test: \(error)")
            switch error {
            case .badPattern: return 64
            case .cannotList: return 2
            case .noTests, .filterMatchesNothing: return 1
            }
        }
        let selection: ShardSelection
        do {
            selection = try ShardSelection(
                command: "harness swift-test", names: listed, shard: shard,
                durationsPath: parsed.value("durations").map { FlowPaths.join(currentDirectory, $0) },
                planPath: parsed.value("plan").map { FlowPaths.join(currentDirectory, $0) },
                loadDurations: { try SwiftTestShardRun.durations(from: $0, for: listed) })
        } catch {
            HarnessCLI.printError("harness swift-test: \(error)")
            return 2
        }
        let selected = listed.filter(selection.plan.isMine)
        let shardText = shard.map { ", shard \($0)\(selection.note)" } ?? ""
        // The plan goes into the folder first, so that merge-reports can prove the run whole.
        let planWritten = RunFiles.writePlan(selection.plan, command: "harness swift-test", artifacts: artifacts)

        let clock = ContinuousClock()
        let started = clock.now
        // The tests' snapshot ledger describes this run (docs/SNAPSHOTS.md, "Lifecycle").
        let ledger = artifacts.map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? HarnessArtifacts.directory(forTestFile: FlowPaths.join(packageDirectory, "Package.swift"), environment: environment)
        SnapshotRunLedger.start([ledger])
        let results: [FlowResult]
        if selected.isEmpty {
            HarnessCLI.printLine("Shard \(shard?.description ?? "") has none of the \(listed.count) tests: the plan gives them all to the other shards")
            results = []
        } else {
            HarnessCLI.printLine("Running \(selected.count) of \(listed.count) Swift test\(listed.count == 1 ? "" : "s")\(shardText)")
            results = await interruption.run { await shardRun.run(selected, interruption: { interruption.reason }) }
        }
        let reporter = FlowProgressReporter(total: results.count, write: HarnessCLI.printLine)
        for result in results { reporter.flowFinished(result) }

        var status = FlowRunSummary(results).exitCode
        do {
            try SnapshotRunLedger.recordSwiftTests(results, workDirectory: shardRun.options.workDirectory,
                                                   packageDirectory: packageDirectory, artifacts: ledger)
        } catch {
            HarnessCLI.printError("harness swift-test: \(error)")
            status = 1
        }
        let wallSeconds = (clock.now - started).flowReportSeconds
        let files = RunFiles(command: "harness swift-test", junit: junit, history: history, artifacts: artifacts)
        let (written, page) = files.write(
            results, junitReport: JUnitReport(results: results, suiteName: "swift-test", timestamp: startDate),
            startDate: startDate, shard: shard?.description
        ) { artifacts in
            // With the traces the tests left there (HARNESS_ARTIFACTS): timelines, screens, replay.
            try RunReport(results: results, title: "Swift tests", startedAt: startDate, wallSeconds: wallSeconds,
                          shard: shard?.description).attachingSwiftTraces(from: artifacts)
                .attachingSnapshotChanges(from: artifacts, currentDirectory: currentDirectory)
        }
        if !written || !planWritten { status = 1 }
        if let page {
            HarnessCLI.printLine("Artifacts: \(page)")
            bazel.printKeptOutputs(for: page)
        }
        reporter.runFinished(results)
        return interruption.exitStatus ?? status
    }
}
