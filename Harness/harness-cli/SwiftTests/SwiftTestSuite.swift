import Foundation
import HarnessCore
import HarnessFlows

/// A Swift package's tests, as a suite source (``SuiteSource``) for `harness swift-test`: each
/// case is a test named as `swift test list` names it (`Module.Suite/test()`), listed and run
/// by ``SwiftTestShardRun``. `swift`'s own output is echoed as it comes, and a line per test
/// follows once its run is over.
struct SwiftTestSuite: SuiteSource {
    let shardRun: SwiftTestShardRun
    let packageDirectory: String
    /// The artifacts folder whose snapshot ledger the tests write: `--artifacts`, else the package's.
    let ledger: URL
    /// The folder of `swift`'s files when there is no artifacts folder, removed at the end.
    let temporary: String?

    /// How many times the tests run (`--repeat-each`).
    let repeatEach: Int
    /// `--tag` and `--skip-tag`: Swift Testing tags the tests are chosen by.
    let tags: [String]
    let skippedTags: [String]

    var caseNoun: String { "test" }
    var junitSuiteName: String { Self.junitSuiteName }
    var junitFailureType: String { Self.junitFailureType }
    /// The JUnit names of a run of Swift tests (also of a merge of such runs' reports).
    static let junitSuiteName = "swift-test"
    static let junitFailureType = "TestFailure"

    /// Reads `harness swift-test`'s own options: `--package-path`, `--swift`, `--timeout`, and
    /// `swift test`'s arguments after `--`.
    init(_ parsed: CommandArguments, context: SuiteRunContext) throws {
        guard parsed.positional.isEmpty else {
            throw CommandError.usage("unexpected \(parsed.positional[0].debugDescription): swift test's own arguments go after --")
        }
        let arguments: SwiftTestArguments
        do {
            arguments = try SwiftTestArguments(parsed.afterSeparator ?? [])
        } catch {
            throw CommandError.usage(error.description)
        }
        let timeout = try parsed.duration("timeout", example: "90s or 30m")
        repeatEach = context.repeatEach
        tags = parsed.values("tag")
        skippedTags = parsed.values("skip-tag")
        packageDirectory = FlowPaths.join(context.currentDirectory, parsed.value("package-path") ?? ".")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: packageDirectory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandError.usage("--package-path \(packageDirectory): no such folder")
        }
        let swift = parsed.value("swift") ?? context.environment[SwiftTestCommand.swiftVariable].flatMap { $0.isEmpty ? nil : $0 } ?? "swift"
        // swift's files go to the shard's folder (merge-reports copies them along), else to a
        // temporary folder removed at the end.
        let artifacts = context.artifacts
        temporary = artifacts == nil
            ? FileManager.default.temporaryDirectory.appendingPathComponent("harness-swift-test-\(UUID().uuidString)").path : nil
        shardRun = SwiftTestShardRun(options: .init(
            swift: swift, packageDirectory: packageDirectory, arguments: arguments,
            workDirectory: artifacts.map { FlowPaths.join($0, "swift-test") } ?? temporary ?? "",
            artifactsDirectory: artifacts, environment: context.environment, timeout: timeout,
            echo: { stream, bytes in StandardStreams.writeEscaped(bytes, to: stream == .standardError ? 2 : 1) }))
        ledger = artifacts.map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? HarnessArtifacts.directory(forTestFile: FlowPaths.join(packageDirectory, "Package.swift"), environment: context.environment)
    }

    func list() async throws -> [String] {
        do {
            return try await shardRun.list(tags: Set(tags), skippedTags: Set(skippedTags))
        } catch {
            let status: Int32 = switch error {
            case .badPattern: 64
            case .cannotList: 2
            case .noTests, .filterMatchesNothing: 1
            }
            throw SuiteSourceError(message: "harness swift-test: \(error)", status: status)
        }
    }

    func durations(from path: String, for names: [String]) throws -> [String: Double] {
        try SwiftTestShardRun.durations(from: path, for: names)
    }

    func snapshotLedgers(for selected: [String]) -> [URL] { [ledger] }

    func startLines(selected: Int, listed: Int, shard: String) -> [String] {
        // An empty shard says only ``emptyShardLine(_:listed:)``.
        selected == 0 ? [] : ["Running \(selected) of \(listed) Swift test\(listed == 1 ? "" : "s")\(shard)"]
    }

    func emptyShardLine(_ shard: FlowShard, listed: Int) -> String {
        "Shard \(shard) has none of the \(listed) tests: the plan gives them all to the other shards"
    }

    /// Runs `swift test` on `selected` once, or `--repeat-each N` times (the second and later
    /// runs' results named `NAME (repeat 2)`...), stopping early when interrupted.
    func run(_ selected: [String], progress: RunProgress, interruption: @escaping @Sendable () -> String) async -> [FlowResult] {
        var all: [FlowResult] = []
        for repetition in 1...repeatEach where repetition == 1 || !Task.isCancelled {
            var results = await shardRun.run(selected, interruption: interruption)
            for index in results.indices { results[index].flow.repetition = repetition }
            // After swift's own output: a line per test (per case of a parameterized test),
            // counted across the repetitions ([6/15] is the first test's second run of three).
            let total = results.count * repeatEach
            for (index, result) in results.enumerated() { progress.finished(result, place: (all.count + index + 1, total)) }
            all += results
        }
        return all
    }

    /// Writes a `ran` line for each test whose source file Swift Testing's event streams in the
    /// work folder (`events-N.jsonl`) name: the test function `f` of `<dir>/<File>.swift` keeps
    /// its references in `<dir>/__Snapshots__/<File>` named `f.*`. An XCTest test (no event
    /// stream names its file) is left out: its references are never judged by its run.
    func recordSnapshots(_ results: [FlowResult]) throws {
        let workDirectory = shardRun.options.workDirectory
        var located = SwiftTestResults(packageDirectory: packageDirectory)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: workDirectory)) ?? []
        for name in names.sorted() where name.hasPrefix("events-") && name.hasSuffix(".jsonl") {
            if let data = FileManager.default.contents(atPath: FlowPaths.join(workDirectory, name)) { located.readEventStream(data) }
        }
        var entries: [SnapshotLedger.Entry] = []
        // The cases of a parameterized test are one test function: it passed when all passed.
        var passed: [String: Bool] = [:]
        var order: [String] = []
        for result in results {
            let identifier = result.parentTest ?? result.path
            if passed[identifier] == nil { order.append(identifier) }
            passed[identifier] = (passed[identifier] ?? true) && result.status == .passed
        }
        for identifier in order {
            guard let position = located.location(of: identifier) else { continue }
            let file = URL(fileURLWithPath: FlowPaths.join(packageDirectory, position.file))
            let function = identifier.split(separator: "/").last.map { SnapshotVerifier.testName(of: String($0)) } ?? identifier
            let folder = file.deletingLastPathComponent().appendingPathComponent("__Snapshots__")
                .appendingPathComponent(file.deletingPathExtension().lastPathComponent).path
            entries.append(.ran(SnapshotLedger.Owner(file: file.path, function: function, label: identifier), folder: folder,
                                passed: passed[identifier] ?? false))
        }
        try SnapshotLedger.append(entries, inArtifacts: ledger)
    }

    /// The report, with the traces the tests left in the artifacts folder (HARNESS_ARTIFACTS):
    /// timelines, screens, replay.
    func report(_ results: [FlowResult], folder: String, startedAt: Date, wallSeconds: Double, shard: String?) throws -> RunReport {
        try Self.report(results, folder: folder, startedAt: startedAt, wallSeconds: wallSeconds, shard: shard)
    }

    /// The report of Swift tests' `results`, with the traces they left in `folder`.
    static func report(_ results: [FlowResult], folder: String, startedAt: Date? = nil, wallSeconds: Double? = nil,
                       shard: String? = nil) throws -> RunReport {
        try RunReport(results: results, title: "Swift tests", startedAt: startedAt, wallSeconds: wallSeconds, shard: shard,
                      caseKind: .tests)
            .attachingSwiftTraces(from: folder)
    }

    func cleanUp() {
        if let temporary { try? FileManager.default.removeItem(atPath: temporary) }
    }
}
