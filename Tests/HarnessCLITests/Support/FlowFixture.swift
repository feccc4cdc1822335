import Foundation
import TestSupport
import Testing
import Harness
@testable import HarnessFlows
@testable import HarnessSteps

/// A temporary folder holding flows and the files they refer to; removed by `remove()`.
struct FlowFixture {
    let directory: TemporaryDirectory
    var folder: String { directory.path }

    init() throws {
        directory = try TemporaryDirectory(prefix: "harness-cli-tests")
    }

    /// Writes `text` at `relative` (folders created); returns the absolute path.
    @discardableResult
    func write(_ text: String, at relative: String, executable: Bool = false) throws -> String {
        try directory.write(text, at: relative, executable: executable)
    }

    /// Parses `source` as the flow `name` of this folder.
    func script(_ source: String, name: String = "t.flow") throws -> FlowScript {
        try write(source, at: name)
        return try FlowParser.load(path: folder + "/" + name, displayName: name)
    }

    /// Parses and runs one attempt of `source`.
    func run(_ source: String, name: String = "t.flow", options: FlowExecutor.Options = testOptions(),
              attempt: Int = 1) async throws -> AttemptOutcome {
        let script = try script(source, name: name)
        return await FlowExecutor(options: options).run(
            script, flow: FlowFile(path: folder + "/" + name, relativePath: name), attempt: attempt)
    }

    func remove() {
        directory.remove()
    }
}

/// Options with a fixed environment and, by default, the timeout of waits that must succeed
/// (a flow that fails by waiting passes its own short `timeout`).
func testOptions(timeout: Duration = mustSucceedTimeout, record: SnapshotRecordMode? = .never, artifacts: String? = nil,
                 extra: [String: String] = [:]) -> FlowExecutor.Options {
    var environment = testEnvironment
    environment["HARNESS_PRODUCTS_DIR"] = BuildProducts.directory.path
    for (key, value) in extra { environment[key] = value }
    return FlowExecutor.Options(defaultTimeout: timeout, recordMode: record, artifactsDirectory: artifacts,
                                environment: environment, stubServers: FlowStubServers.start)
}

/// The failure of an outcome, or a recorded issue.
func failure(of outcome: AttemptOutcome, sourceLocation: SourceLocation = #_sourceLocation) -> FlowFailure? {
    guard case .failed(let failure) = outcome else {
        Issue.record("expected a failure, got \(outcome)", sourceLocation: sourceLocation)
        return nil
    }
    return failure
}
