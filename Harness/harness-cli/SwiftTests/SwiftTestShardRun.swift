import Foundation
import HarnessFlows
import HarnessCore

/// The `swift test` runner behind `harness swift-test` (``SwiftTestSuite``): lists the tests
/// (`swift test list`) narrowed by the user's `--filter`/`--skip`, runs exactly the part the
/// pipeline chose (``SuiteRun``: `swift test --filter` with anchored patterns,
/// ``SwiftTestFilter``) and reads what `swift test` reported (``SwiftTestResults``) into results.
///
/// ```swift
/// let run = SwiftTestShardRun(options: options)
/// let names = try await run.list()
/// let results = await run.run(names.filter(plan.isMine))
/// ```
package struct SwiftTestShardRun: Sendable {
    /// How to call `swift` and where to leave its files (made with its memberwise `init`).
    package struct Options: Sendable {
        /// The `swift` executable: a path, or a name looked up in `PATH`.
        package var swift: String
        /// The package's folder (absolute); `swift` runs there.
        package var packageDirectory: String
        /// The user's `swift test` arguments, without `--filter` and `--skip` (``SwiftTestArguments``).
        package var arguments: SwiftTestArguments
        /// Where each run's xUnit files, event stream and console output are written.
        package var workDirectory: String
        /// `HARNESS_ARTIFACTS` for the tests: the shard's artifacts folder, where the harness
        /// leaves what a Swift test keeps (screens, recordings, traces).
        package var artifactsDirectory: String?
        /// The environment of `swift`.
        package var environment: [String: String]
        /// The longest one `swift test` run may take before it is stopped; nil: no limit.
        package var timeout: Duration?
        /// Called with everything `swift` prints, as it prints it (to show progress).
        package var echo: @Sendable (PipedSession.Stream, [UInt8]) -> Void
    }

    package let options: Options

    package init(options: Options) {
        self.options = options
    }

    /// A time limit long enough to mean none (waits take a limit).
    static let noLimit = Duration.seconds(365 * 24 * 3600)

    // MARK: - Listing

    /// The package's tests as `swift test list` names them, narrowed by `--filter`/`--skip`,
    /// then to those with one of `tags` (when given) and none of `skippedTags`: Swift Testing's
    /// tags, read from the event stream the listing writes (`swift test` 6.3 has no tag filter;
    /// an XCTest test has none).
    /// - Throws: ``SwiftTestShardRunError`` when `swift` cannot be started or the listing fails.
    package func list(tags: Set<String> = [], skippedTags: Set<String> = []) async throws(SwiftTestShardRunError) -> [String] {
        let stream = tags.isEmpty && skippedTags.isEmpty ? nil : FlowPaths.join(options.workDirectory, "list-events.jsonl")
        if let stream {
            try? FileManager.default.createDirectory(atPath: options.workDirectory, withIntermediateDirectories: true)
            try? FileManager.default.removeItem(atPath: stream)
        }
        let streamArguments = stream.map { ["--event-stream-output-path", $0, "--event-stream-version", "0"] } ?? []
        var configuration = PipedSession.Configuration(
            executable: options.swift, arguments: ["test", "list"] + options.arguments.forListing + streamArguments,
            environment: options.environment, workingDirectory: options.packageDirectory)
        let echo = options.echo
        configuration.onOutput = { stream, bytes in if stream == .standardError { echo(stream, bytes) } }
        let output: PipedSession.Output
        do {
            let session = try PipedSession.launch(configuration)
            defer { session.terminate() }
            output = try await session.waitForExit(timeout: options.timeout ?? Self.noLimit)
        } catch {
            throw .cannotList(command: listCommand, reason: "\(error)")
        }
        guard output.status.isSuccess else {
            throw .cannotList(command: listCommand, reason: "it \(output.status)")
        }
        let all = SwiftTestList.identifiers(in: output.standardOutput)
        var selected: [String]
        do {
            selected = try SwiftTestList.select(all, filters: options.arguments.filters, skips: options.arguments.skips)
        } catch {
            throw .badPattern(error.description)
        }
        if let stream {
            var results = SwiftTestResults(packageDirectory: options.packageDirectory)
            results.readEventStream(FileManager.default.contents(atPath: stream) ?? Data())
            selected = selected.filter { name in
                let own = results.tags[name] ?? []
                return (tags.isEmpty || !own.isDisjoint(with: tags)) && own.isDisjoint(with: skippedTags)
            }
            guard !selected.isEmpty else {
                throw .filterMatchesNothing(filters: tags.sorted().map { "tag:" + $0 }, skips: skippedTags.sorted().map { "tag:" + $0 },
                                            listed: all.count)
            }
        }
        guard !selected.isEmpty else {
            if all.isEmpty { throw .noTests(command: listCommand) }
            throw .filterMatchesNothing(filters: options.arguments.filters, skips: options.arguments.skips, listed: all.count)
        }
        return selected
    }

    private var listCommand: String {
        ([options.swift, "test", "list"] + options.arguments.forListing).joined(separator: " ")
    }

    // MARK: - Sharding (the split itself is ``FlowRunPlan``'s, as for flows)

    /// Earlier durations of `identifiers` from `path`: a JUnit report (this command's, a merged
    /// one, or `swift test`'s own xUnit file) or a history folder (``FlowDurations/load(path:naming:)``).
    /// A case is matched by its `file` attribute (this command writes the test's name there),
    /// else by its class name and name (`Module.Suite.Nested` + `test()`); a parameterized
    /// test's duration is that of its cases together (``SwiftTestCaseName``).
    package static func durations(from path: String, for identifiers: [String]) throws -> [String: Double] {
        let byName = try FlowDurations.load(path: path) { testCase in
            if let file = testCase.file, !file.isEmpty { return file }
            return testCase.classname.isEmpty ? testCase.name : testCase.classname + "." + testCase.name
        }
        var byKey: [String: Double] = [:]
        for (name, seconds) in byName { byKey[SwiftTestResults.xunitKey(of: name)] = seconds }
        var durations: [String: Double] = [:]
        for identifier in identifiers {
            if let seconds = byKey[SwiftTestResults.xunitKey(of: identifier)] { durations[identifier] = seconds }
        }
        for (name, seconds) in byName where name.hasSuffix("]") {
            guard let test = identifiers.first(where: { SwiftTestCaseName.name(name, isOf: $0) }), byKey[SwiftTestResults.xunitKey(of: test)] == nil
            else { continue }
            durations[test, default: 0] += seconds
        }
        return durations
    }

    // MARK: - Running

    /// Runs exactly `identifiers` (one `swift test` run, or several when the patterns exceed a
    /// command line's limits) and returns one result per name.
    ///
    /// When the task is cancelled (the run was interrupted), `swift test` is ended (its process
    /// group, as any program's teardown), no further run starts, and the tests it did not finish
    /// are interrupted, marked with `interruption()`
    /// (``SwiftTestResults/results(for:problem:interruption:)``).
    package func run(_ identifiers: [String], interruption: @escaping @Sendable () -> String = { "interrupted" }) async -> [FlowResult] {
        var results = SwiftTestResults(packageDirectory: options.packageDirectory)
        var problems: [String] = []
        let runs = SwiftTestFilter.runs(selecting: identifiers)
        // XCTest writes its xUnit file only when SwiftPM runs it in parallel.
        let needsParallel = identifiers.contains { !$0.hasSuffix(")") } && !options.arguments.choosesParallelism
        do {
            try FileManager.default.createDirectory(atPath: options.workDirectory, withIntermediateDirectories: true)
        } catch {
            return results.results(for: identifiers, problem: "cannot create \(options.workDirectory): \(error.localizedDescription)")
        }
        var environment = options.environment
        if let artifacts = options.artifactsDirectory { environment[HarnessArtifacts.environmentVariable] = artifacts }
        for (index, filters) in runs.enumerated() where !Task.isCancelled {
            let number = index + 1
            let xunit = FlowPaths.join(options.workDirectory, "xunit-\(number).xml")
            let events = FlowPaths.join(options.workDirectory, "events-\(number).jsonl")
            for stale in [xunit, Self.swiftTestingXUnitPath(of: xunit), events] {
                try? FileManager.default.removeItem(atPath: stale)
            }
            var arguments = ["test"] + options.arguments.forRunning + (needsParallel ? ["--parallel"] : [])
            arguments += filters.flatMap { ["--filter", $0] }
            arguments += ["--xunit-output", xunit, "--event-stream-output-path", events, "--event-stream-version", "0"]
            var configuration = PipedSession.Configuration(
                executable: options.swift, arguments: arguments, environment: environment, workingDirectory: options.packageDirectory)
            configuration.onOutput = options.echo
            var console = Data()
            do {
                let session = try PipedSession.launch(configuration)
                defer { session.terminate() }
                do {
                    let output = try await session.waitForExit(timeout: options.timeout ?? Self.noLimit)
                    console = output.standardOutputData + output.standardErrorData
                    if !output.status.isSuccess { problems.append("swift test \(output.status)") }
                } catch {
                    console = session.standardOutputSoFar + session.standardErrorSoFar
                    session.terminate()
                    problems.append("\(error)")
                }
            } catch {
                problems.append("\(error)")
            }
            try? console.write(to: URL(fileURLWithPath: FlowPaths.join(options.workDirectory, "output-\(number).txt")))
            results.readConsole(String(decoding: console, as: UTF8.self))
            for file in [xunit, Self.swiftTestingXUnitPath(of: xunit)] {
                do {
                    try results.readXUnit(path: file)
                } catch {
                    problems.append("\(error)")
                }
            }
            if let data = FileManager.default.contents(atPath: events) { results.readEventStream(data) }
        }
        return results.results(for: identifiers, problem: problems.isEmpty ? nil : problems.joined(separator: "; "),
                               interruption: Task.isCancelled ? interruption() : nil)
    }

    /// Where Swift Testing writes its xUnit report for `--xunit-output PATH` (Swift 6):
    /// `-swift-testing` before the extension (`out/x.xml` gives `out/x-swift-testing.xml`).
    package static func swiftTestingXUnitPath(of path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let extensionPart = url.pathExtension
        let stem = url.deletingPathExtension().lastPathComponent + "-swift-testing"
        return url.deletingLastPathComponent().appendingPathComponent(extensionPart.isEmpty ? stem : stem + "." + extensionPart).path
    }
}

/// Why the tests could not be listed, or none was left to plan.
package enum SwiftTestShardRunError: Error, Equatable, CustomStringConvertible {
    /// `swift test list` could not be started or failed.
    case cannotList(command: String, reason: String)
    /// The package has no tests.
    case noTests(command: String)
    /// The user's `--filter`/`--skip` left none.
    case filterMatchesNothing(filters: [String], skips: [String], listed: Int)
    /// A `--filter`/`--skip` that is not a regular expression.
    case badPattern(String)

    package var description: String {
        switch self {
        case .cannotList(let command, let reason): "cannot list the tests: `\(command)`: \(reason)"
        case .noTests(let command): "the package has no tests (`\(command)` listed none)"
        case .filterMatchesNothing(let filters, let skips, let listed):
            "no test matches " + (filters.map { "--filter \($0.debugDescription)" } + skips.map { "--skip \($0.debugDescription)" })
                .joined(separator: " ") + " (of \(listed) tests listed)"
        case .badPattern(let message): message
        }
    }
}
