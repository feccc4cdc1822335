import Foundation
import HarnessCore
import HarnessFlows
import HarnessSystem

/// Bazel's test protocol, as `harness run` and `harness swift-test` follow it when Bazel runs them
/// as a test (an `sh_test` whose script calls `harness run`; docs/NIGHTLY.md, "Bazel"). Each
/// variable is used when set:
///
/// | variable | what `harness run` (and `harness swift-test`) does with it |
/// |---|---|
/// | `TEST_SHARD_INDEX`, `TEST_TOTAL_SHARDS` | `--shard auto` takes the shard from them (0-based) |
/// | `TEST_SHARD_STATUS_FILE` | touched when `--shard auto` took Bazel's shard, which tells Bazel the test shards |
/// | `XML_OUTPUT_FILE` | the JUnit report, when `--junit` is not given |
/// | `TEST_UNDECLARED_OUTPUTS_DIR` | the artifacts and the report when `--artifacts` is not given; relative `--artifacts` and `--junit` paths are inside it |
/// | `TEST_TMPDIR` | `TMPDIR` of the run: sandboxes, bridge folders, the programs' temporary files |
/// | `TEST_SRCDIR` | under Bazel: the snapshot record mode defaults to `never` (``SnapshotRecordMode``) |
/// | `TEST_TARGET` | names, in the output, where Bazel keeps the artifacts after the test |
struct BazelTestEnvironment {
    /// `XML_OUTPUT_FILE`.
    let xmlOutputFile: String?
    /// `TEST_UNDECLARED_OUTPUTS_DIR`.
    let undeclaredOutputs: String?
    /// `TEST_TMPDIR`.
    let temporaryDirectory: String?
    /// `TEST_SHARD_STATUS_FILE`.
    let shardStatusFile: String?
    /// `TEST_TARGET` (`//flows:third_party`).
    let target: String?
    /// `TEST_SHARD_INDEX` and `TEST_TOTAL_SHARDS`, as given (0-based).
    let shard: (index: Int, total: Int)?

    /// Reads the variables of `environment` (an empty one counts as unset).
    init(_ environment: [String: String]) {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        xmlOutputFile = value("XML_OUTPUT_FILE")
        undeclaredOutputs = value("TEST_UNDECLARED_OUTPUTS_DIR")
        temporaryDirectory = value("TEST_TMPDIR")
        shardStatusFile = value("TEST_SHARD_STATUS_FILE")
        target = value("TEST_TARGET")
        if let index = value(FlowShard.bazelIndexVariable).flatMap(Int.init), let total = value("TEST_TOTAL_SHARDS").flatMap(Int.init) {
            shard = (index, total)
        } else {
            shard = nil
        }
    }

    /// Makes `TEST_TMPDIR` this process's `TMPDIR`, so that everything the run creates (and the
    /// programs it starts) goes there. Call it before anything else of the command runs.
    func useTemporaryDirectory() throws(CommandError) {
        guard let temporaryDirectory else { return }
        do {
            try Posix.setEnvironmentVariable("TMPDIR", to: temporaryDirectory)
        } catch {
            throw .failure("cannot use TEST_TMPDIR: \(error)")
        }
    }

    /// Touches `TEST_SHARD_STATUS_FILE`: this test runs the shard Bazel gave it (Bazel fails a
    /// sharded test that does not say so).
    func confirmSharding() throws(CommandError) {
        guard let shardStatusFile else { return }
        guard FileManager.default.createFile(atPath: shardStatusFile, contents: nil) else {
            throw .failure("cannot touch TEST_SHARD_STATUS_FILE \(shardStatusFile)")
        }
    }

    /// Prints, after `Artifacts: PATH`, where Bazel keeps that page once the test is over (the
    /// sandbox it is in is gone by then), when it is inside the undeclared outputs.
    func printKeptOutputs(for page: String) {
        guard let outputs = undeclaredOutputs, FlowPaths.relative(page, to: outputs) != nil, let kept = keptOutputs else { return }
        HarnessCLI.printLine("Bazel keeps TEST_UNDECLARED_OUTPUTS_DIR after the test: \(kept)/outputs.zip")
    }

    /// Where Bazel keeps the undeclared outputs once the test is over (the folder the test
    /// writes to is in a sandbox that is removed), relative to the workspace:
    /// `bazel-testlogs/flows/third_party/shard_2_of_3/test.outputs` for `//flows:third_party`;
    /// nil without `TEST_TARGET`.
    var keptOutputs: String? {
        guard let target else { return nil }
        // `//flows:third_party` or `@repo//flows:third_party`: the package, then the name.
        let label = target.split(separator: "//", maxSplits: 1).last.map(String.init) ?? target
        let parts = label.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let package = parts[0]
        let name = parts.count > 1 ? parts[1] : (package.split(separator: "/").last.map(String.init) ?? package)
        var path = "bazel-testlogs/" + (package.isEmpty ? "" : package + "/") + name
        if let shard, shard.total > 1 { path += "/shard_\(shard.index + 1)_of_\(shard.total)" }
        return path + "/test.outputs"
    }
}
