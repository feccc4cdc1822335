import Foundation
import HarnessCore
import HarnessSteps

/// What the runners (`harness run`, `harness swift-test`) write in the snapshot ledger
/// (``SnapshotLedger``): they start it afresh, then say which flows or tests ran and whether
/// they passed, so that ``SnapshotReview`` judges only references whose owner ran.
package enum SnapshotRunLedger {
    /// The artifacts folders the flows' snapshots write to: `artifacts` when given, else each
    /// flow's default (``HarnessArtifacts/directory(forTestFile:environment:)``), as the flows'
    /// `snapshot` steps choose it.
    package static func folders(of flows: [FlowFile], artifacts: String?, environment: [String: String]) -> [URL] {
        if let artifacts { return [URL(fileURLWithPath: artifacts, isDirectory: true)] }
        var seen: Set<String> = []
        return flows.map { HarnessArtifacts.directory(forTestFile: $0.path, environment: environment) }
            .filter { seen.insert($0.path).inserted }
    }

    /// Starts the ledgers of `folders` afresh (a run begins).
    package static func start(_ folders: [URL]) {
        for folder in folders { SnapshotLedger.reset(inArtifacts: folder) }
    }

    /// Writes a `ran` line for each flow of `results`: its references are in
    /// `<its folder>/__Snapshots__/<its name>`; it passed when its last attempt passed.
    /// - Throws: ``SnapshotError`` when a ledger cannot be written.
    package static func recordFlows(_ results: [FlowResult], artifacts: String?, environment: [String: String]) throws(SnapshotError) {
        for result in results {
            let flow = result.flow
            let folder = URL(fileURLWithPath: flow.path).deletingLastPathComponent()
                .appendingPathComponent("__Snapshots__").appendingPathComponent(flow.name).path
            let entry = SnapshotLedger.Entry.ran(
                SnapshotLedger.Owner(file: flow.path, function: flow.name, label: flow.relativePath),
                folder: folder, passed: result.status == .passed || result.status == .flaky)
            let ledger = artifacts.map { URL(fileURLWithPath: $0, isDirectory: true) }
                ?? HarnessArtifacts.directory(forTestFile: flow.path, environment: environment)
            try SnapshotLedger.append(entry, inArtifacts: ledger)
        }
    }
}
