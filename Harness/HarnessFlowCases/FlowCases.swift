import Foundation
// What `FlowCases`' API names: the flow file a case runs.
@_exported import struct HarnessSteps.FlowFile
import HarnessCore
import Harness
import HarnessFlows
import HarnessSteps
import Testing

/// `.flow` files as Swift test cases: one parameterized test runs a folder of flows under
/// `swift test`, on the same engine as `harness run`, each failure reported at its flow line.
///
/// ```swift
/// @Test(arguments: FlowCases.files(in: "Tests/Flows"))
/// func bundledFlow(_ flow: FlowFile) async throws {
///     try await FlowCases.run(flow)
/// }
/// ```
///
/// A flow that does not parse is reported at each error's `file.flow:LINE:COLUMN`; a failed
/// step at its own line, with the message `harness run` prints; a flow whose program is not
/// installed is cancelled (Swift Testing's `Test.cancel`), as `harness run` skips it.
/// `${HARNESS_PRODUCTS_DIR}` in `app` lines is the package's build folder.
public enum FlowCases {
    /// The flows under `folder` (relative to the package root, found from the calling test
    /// file), sorted by path; relative paths in reports start at the package root.
    ///
    /// A run that finds nothing to run must not pass: a folder that is missing, holds no flow, or
    /// none that `filter` keeps gives one case standing for the folder, which ``run(_:timeout:)``
    /// fails with "no flows found under FOLDER".
    public static func files(in folder: String, filter: String? = nil, filePath: StaticString = #filePath) -> [FlowFile] {
        let root = HarnessArtifacts.packageRoot(containing: "\(filePath)")?.path ?? FileManager.default.currentDirectoryPath
        let found = (try? FlowDiscovery.discover([folder], root: root, filter: filter)) ?? []
        guard found.isEmpty else { return found }
        let what = filter.map { " matching /\($0)/" } ?? ""
        return [FlowFile(path: FlowPaths.join(root, folder), relativePath: "\(folder) (no flows found\(what))")]
    }

    /// Parses and runs one flow; records an issue at the flow's line when it fails.
    ///
    /// - Parameter timeout: the waits' limit until the flow's own `timeout` line.
    public static func run(_ flow: FlowFile, timeout: Duration = .seconds(10)) async throws {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: flow.path, isDirectory: &isDirectory) || isDirectory.boolValue {
            Issue.record(Comment(rawValue: "no flows found under \(flow.path)"))
            return
        }
        let script: FlowScript
        do {
            script = try FlowParser.load(flow)
        } catch {
            for parseError in error.errors {
                Issue.record(Comment(rawValue: parseError.message), sourceLocation: location(of: parseError.position, in: flow))
            }
            return
        }
        var environment = ProcessInfo.processInfo.environment
        if environment["HARNESS_PRODUCTS_DIR"]?.isEmpty ?? true {
            environment["HARNESS_PRODUCTS_DIR"] = BuildProducts.directory.path
        }
        let artifacts = TraceSwitch.folder
        let traces = artifacts.map { _ in FlowTraceCollector(mode: .on) }
        let options = FlowExecutor.Options(defaultTimeout: timeout, artifactsDirectory: artifacts, environment: environment, traces: traces,
                                           stubServers: FlowStubServers.start)
        let started = ContinuousClock.now
        let outcome = await FlowExecutor(options: options).run(script, flow: flow)
        if let artifacts, let traces {
            // The trace `harness run --artifacts` would keep, for `harness merge-reports`.
            let named = traced(flow, traces)
            StepEngine.writeReport(of: named.flow, outcome: outcome, duration: ContinuousClock.now - started, traces: named.traces,
                                   in: artifacts)
        }
        switch outcome {
        case .passed:
            return
        case .failed(let failure):
            let position = failure.position ?? SourcePosition(file: flow.relativePath, line: 1, column: 1)
            Issue.record(Comment(rawValue: failure.message), sourceLocation: location(of: position, in: flow))
        case .skipped(let reason):
            try Test.cancel(Comment(rawValue: reason))
        case .interrupted(let interruption):
            try Test.cancel(Comment(rawValue: interruption.message))
        }
    }

    /// A flow position as Swift Testing's location: the flow file itself, so an editor or CI
    /// annotation opens the `.flow` line.
    static func location(of position: SourcePosition, in flow: FlowFile) -> SourceLocation {
        let parts = flow.relativePath.split(separator: "/").suffix(2)
        let fileID = parts.count == 2 ? parts.joined(separator: "/") : "Flows/\(parts.joined())"
        return SourceLocation(fileID: fileID, filePath: flow.path, line: max(1, position.line), column: max(1, position.column))
    }
}
