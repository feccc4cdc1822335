import Foundation
import TestSupport
import Testing
import HarnessCore
@testable import HarnessFlows
@testable import HarnessSteps

/// `harness snapshots accept` reads a run's ledger, which the job that ran the code under test
/// wrote: it writes only reference files in the snapshot folders of the run's flows and tests,
/// and copies only actual snapshots inside the run's folder.
@Suite struct SnapshotAcceptTrustTests {
    /// One crafted ledger line: where it says the reference is and where the actual one is,
    /// relative to a folder that holds `Tests/f.flow` (with `Tests/__Snapshots__/f/f.x.txt`),
    /// `Tests/h.flow` (whose `Tests/__Snapshots__/h` is a link to `outside`), `home/.bashrc`,
    /// `outside/` and the run folder `run/` (with `run/actual.txt`).
    struct Crafted: Sendable, CustomTestStringConvertible {
        var label: String
        var reference: String
        var actual = "run/actual.txt"
        var owner = "f"
        var testDescription: String { label }
    }

    @Test(arguments: [
        Crafted(label: "a dotfile", reference: "home/.bashrc"),
        Crafted(label: "a dotfile in the snapshot folder", reference: "Tests/__Snapshots__/f/.f.x.txt"),
        Crafted(label: "../ out of the snapshot folder", reference: "Tests/__Snapshots__/f/../../../home/.bashrc"),
        Crafted(label: "an absolute path outside", reference: "outside/__Snapshots__/f/f.x.txt"),
        Crafted(label: "a snapshot folder that is a link", reference: "Tests/__Snapshots__/h/h.x.txt", owner: "h"),
        Crafted(label: "a reference that is a link", reference: "Tests/__Snapshots__/f/f.link.txt"),
        Crafted(label: "another owner's name", reference: "Tests/__Snapshots__/f/g.x.txt"),
        Crafted(label: "an actual outside the run", reference: "Tests/__Snapshots__/f/f.x.txt", actual: "home/.bashrc"),
        Crafted(label: "an actual that is a link", reference: "Tests/__Snapshots__/f/f.x.txt", actual: "run/linked.txt"),
    ])
    func aCraftedLedgerCannotWriteOutsideTheRunsSnapshotFolders(_ crafted: Crafted) async throws {
        let folder = try TemporaryDirectory(prefix: "snapshot-accept-trust")
        defer { folder.remove() }
        let root = folder.path
        for (path, text) in [("Tests/f.flow", "launch\n"), ("Tests/h.flow", "launch\n"), ("Tests/__Snapshots__/f/f.x.txt", "old\n"),
                             ("home/.bashrc", "original\n"), ("outside/kept.txt", "kept\n"), ("run/actual.txt", "EVIL\n")] {
            try folder.write(text, at: path)
        }
        let manager = FileManager.default
        try manager.createSymbolicLink(atPath: root + "/Tests/__Snapshots__/h", withDestinationPath: root + "/outside")
        try manager.createSymbolicLink(atPath: root + "/Tests/__Snapshots__/f/f.link.txt", withDestinationPath: root + "/home/.bashrc")
        try manager.createSymbolicLink(atPath: root + "/run/linked.txt", withDestinationPath: root + "/home/.bashrc")
        let owner = SnapshotLedger.Owner(file: root + "/Tests/\(crafted.owner).flow", function: crafted.owner, label: "Tests/\(crafted.owner).flow")
        let entry = SnapshotLedger.Entry.snapshot(root + "/" + crafted.reference, owner: owner, outcome: .failed,
                                                  actual: root + "/" + crafted.actual, companions: [])
        try SnapshotLedger.append(entry, inArtifacts: URL(fileURLWithPath: root + "/run", isDirectory: true))
        let before = try Self.files(under: root)

        let accept = try await runHarness(["snapshots", "accept", "--run", "run"], in: root)
        #expect(accept.status == 1, "\(accept.stdout)\n\(accept.stderr)")
        #expect(accept.stderr.contains("harness snapshots: cannot accept") && accept.stderr.contains("refused to"), "\(accept.stderr)")
        var after = try Self.files(under: root)
        after["run/snapshot-ledger.jsonl"] = before["run/snapshot-ledger.jsonl"]
        #expect(after == before, "a file changed")
    }

    @Test func theRunsOwnChangeIsStillAccepted() async throws {
        let folder = try TemporaryDirectory(prefix: "snapshot-accept-trust")
        defer { folder.remove() }
        let root = folder.path
        try folder.write("launch\n", at: "Tests/f.flow")
        try folder.write("new\n", at: "run/Tests/__Snapshots__/f/f.x.txt")
        let owner = SnapshotLedger.Owner(file: root + "/Tests/f.flow", function: "f", label: "Tests/f.flow")
        let entry = SnapshotLedger.Entry.snapshot(root + "/Tests/__Snapshots__/f/f.x.txt", owner: owner, outcome: .failed,
                                                  actual: root + "/run/Tests/__Snapshots__/f/f.x.txt", companions: [])
        try SnapshotLedger.append(entry, inArtifacts: URL(fileURLWithPath: root + "/run", isDirectory: true))
        let accept = try await runHarness(["snapshots", "accept", "--run", "run"], in: root)
        #expect(accept.status == 0, "\(accept.stdout)\n\(accept.stderr)")
        #expect(try String(contentsOfFile: root + "/Tests/__Snapshots__/f/f.x.txt", encoding: .utf8) == "new\n")
    }

    /// Every file and link under `root` with its content (a link: where it points).
    static func files(under root: String) throws -> [String: String] {
        var found: [String: String] = [:]
        let manager = FileManager.default
        for path in try manager.subpathsOfDirectory(atPath: root) {
            let full = root + "/" + path
            if let destination = try? manager.destinationOfSymbolicLink(atPath: full) {
                found[path] = "-> " + destination
            } else if let data = manager.contents(atPath: full) {
                found[path] = String(decoding: data, as: UTF8.self)
            } else {
                found[path] = "(folder)"
            }
        }
        return found
    }
}
