import Foundation
import HarnessCore
import HarnessFlows
import HarnessSystem

/// `harness snapshots [PATHS...] [--run DIR]... [--prune]` lists the snapshot references under
/// PATHS that the runs no longer use, and removes them with `--prune`;
/// `harness snapshots accept [NAMES...] [--run DIR]...` copies the actual snapshots a failed
/// run left over their references. Both read the runs' snapshot ledgers (``SnapshotLedger``),
/// judged by ``SnapshotReview`` (docs/SNAPSHOTS.md, "Lifecycle"). A ledger is untrusted input:
/// accept writes only reference files in the `__Snapshots__` folders of the run's flows and
/// tests, from actual snapshots inside the run's folder (``SnapshotReview/Change/acceptRefusal(runFolders:)``).
///
/// Exit 0 when nothing is unused (or `--prune` removed it) and when everything asked for was
/// accepted; 1 when unused references are listed, a name matches no changed snapshot, a file
/// cannot be copied or removed, or a run folder has no ledger; 64 for bad usage.
enum SnapshotsCommand: Command {
    static let name = "snapshots"
    static let operands = "[PATHS...] | accept [NAMES...]"
    static let summary = """
        list the snapshot references under PATHS (default: .) that no flow or test used in the runs,
        or accept the changed snapshots a failed run left (all, or the NAMES: flows, tests, snapshots)
        """
    static let options: [CommandOption] = [
        CommandOption(name: "run", value: "DIR",
                      summary: "a run's artifacts folder, repeatable (default: $HARNESS_ARTIFACTS, else .build/harness-artifacts)"),
        CommandOption(name: "prune", value: nil, summary: "removes the unused references it lists"),
    ]

    static let helpDetails = """
        A reference is unused when no run compared it and either its flow or test ran and passed
        without it, or its .flow/.swift file is gone; a reference whose owner did not run (a
        filtered or sharded run) or did not pass is never called unused.
        NAMES for accept: a flow's path or name, a test's name, a snapshot (login.idle) or a
        reference's path.
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try parse(arguments)
        let currentDirectory = FileManager.default.currentDirectoryPath
        let runs = try runFolders(parsed, currentDirectory: currentDirectory)
        var ledgers: [[SnapshotLedger.Entry]] = []
        for run in runs {
            guard let entries = SnapshotLedger.entries(inArtifacts: URL(fileURLWithPath: run, isDirectory: true)) else {
                throw CommandError.failure("no snapshot ledger in \(run) (\(SnapshotLedger.fileName)): give --run the "
                                           + "--artifacts folder of a `harness run` or `harness swift-test`, or the "
                                           + "HARNESS_ARTIFACTS of a swift test run")
            }
            ledgers.append(entries)
        }
        let review = SnapshotReview(ledgers: ledgers)
        let shownRuns = runs.map { RunReport.shown($0, from: currentDirectory) }.joined(separator: ", ")
        if parsed.positional.first == "accept" {
            guard !parsed.has("prune") else { throw CommandError.usage("--prune lists and removes unused references: not with accept") }
            return try accept(review, names: Array(parsed.positional.dropFirst()), runs: runs, shownRuns: shownRuns,
                              currentDirectory: currentDirectory)
        }
        return try listUnused(review, paths: parsed.positional.isEmpty ? ["."] : parsed.positional, prune: parsed.has("prune"),
                              shownRuns: shownRuns, currentDirectory: currentDirectory)
    }

    /// The `--run` folders, absolute, else the default artifacts folder.
    private static func runFolders(_ parsed: CommandArguments, currentDirectory: String) throws -> [String] {
        let given = parsed.options.filter { $0.name == "run" }.map { FlowPaths.join(currentDirectory, $0.value) }
        for folder in given {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw CommandError.usage("--run \(folder): no such folder")
            }
        }
        if !given.isEmpty { return given }
        if let override = ProcessInfo.processInfo.environment[HarnessArtifacts.environmentVariable], !override.isEmpty {
            return [FlowPaths.join(currentDirectory, override)]
        }
        guard let root = HarnessArtifacts.packageRoot(containing: FlowPaths.join(currentDirectory, "-")) else {
            throw CommandError.usage("no --run folder given, and no Package.swift here or above for .build/harness-artifacts")
        }
        return [root.appendingPathComponent(".build/harness-artifacts").path]
    }

    // MARK: - Unused

    private static func listUnused(_ review: SnapshotReview, paths: [String], prune: Bool, shownRuns: String,
                                   currentDirectory: String) throws -> Int32 {
        let references: [String]
        do {
            references = try SnapshotReview.references(under: paths.map { FlowPaths.join(currentDirectory, $0) })
        } catch {
            throw CommandError.usage(error.description)
        }
        var unused: [(path: String, reason: String)] = []
        var used = 0, notJudged = 0
        for reference in references {
            switch review.verdict(for: reference) {
            case .used: used += 1
            case .notJudged: notJudged += 1
            case .unused(let reason): unused.append((reference, reason))
            }
        }
        let counts = "\(unused.count) unused, \(used) used, \(notJudged) not judged (their flow or test did not run and pass) "
            + "of \(references.count) reference\(references.count == 1 ? "" : "s"), by the runs in \(shownRuns)"
        guard !unused.isEmpty else {
            HarnessCLI.printLine("No unused snapshot references: " + counts)
            return 0
        }
        HarnessCLI.printLine(prune ? "Removing the unused snapshot references:" : "Unused snapshot references:")
        var status: Int32 = prune ? 0 : 1
        for (path, reason) in unused {
            HarnessCLI.printLine("  \(RunReport.shown(path, from: currentDirectory)): \(reason)")
            guard prune else { continue }
            do {
                try FileManager.default.removeItem(atPath: path)
                removeIfEmpty(URL(fileURLWithPath: path).deletingLastPathComponent())
            } catch {
                HarnessCLI.printError("harness snapshots: cannot remove \(path): \(error.localizedDescription)")
                status = 1
            }
        }
        HarnessCLI.printLine((prune ? "Removed: " : "") + counts)
        if !prune { HarnessCLI.printLine("Run again with --prune to remove them.") }
        return status
    }

    /// Removes `folder` (a `__Snapshots__/<name>` folder) when nothing is left in it, then its
    /// `__Snapshots__` parent when that is empty too.
    private static func removeIfEmpty(_ folder: URL) {
        for candidate in [folder, folder.deletingLastPathComponent()] {
            guard let items = try? FileManager.default.contentsOfDirectory(atPath: candidate.path), items.isEmpty else { return }
            try? FileManager.default.removeItem(at: candidate)
        }
    }

    // MARK: - Accept

    private static func accept(_ review: SnapshotReview, names: [String], runs: [String], shownRuns: String,
                               currentDirectory: String) throws -> Int32 {
        let changes = review.changes
        var chosen: [SnapshotReview.Change] = []
        if names.isEmpty {
            chosen = changes
        } else {
            var unmatched: [String] = []
            for name in names {
                let matching = changes.filter { matches(name, $0, currentDirectory: currentDirectory) }
                if matching.isEmpty { unmatched.append(name) }
                for change in matching where !chosen.contains(where: { $0.reference == change.reference }) { chosen.append(change) }
            }
            guard unmatched.isEmpty else {
                let available = changes.map { "  " + RunReport.shown($0.reference, from: currentDirectory) }
                throw CommandError.failure(
                    "no changed snapshot of \(unmatched.map(\.debugDescription).joined(separator: ", ")) in \(shownRuns)"
                        + (available.isEmpty ? " (the runs left none)" : "; the runs left:\n" + available.joined(separator: "\n")))
            }
        }
        guard !chosen.isEmpty else {
            HarnessCLI.printLine("Nothing to accept: the runs in \(shownRuns) left no changed snapshot")
            return 0
        }
        HarnessCLI.printLine("Accepting \(chosen.count) snapshot\(chosen.count == 1 ? "" : "s") from \(shownRuns):")
        var status: Int32 = 0
        for change in chosen {
            // The ledger comes from the run's folder: only its references are written, only from it.
            if let refusal = change.acceptRefusal(runFolders: runs) {
                HarnessCLI.printError("harness snapshots: cannot accept \(change.reference): \(refusal)")
                status = 1
                continue
            }
            var copied: [String] = []
            do {
                try copy(change.actual, over: change.reference)
                for companion in change.companions {
                    guard let actual = companion.actual, Posix.entryKind(ofPath: actual) == .regularFile else { continue }
                    try copy(actual, over: companion.reference)
                    copied.append(URL(fileURLWithPath: companion.reference).pathExtension)
                }
            } catch {
                HarnessCLI.printError("harness snapshots: cannot accept \(change.reference): \(error)")
                status = 1
                continue
            }
            let also = copied.isEmpty ? "" : " (and its \(copied.map { "." + $0 }.joined(separator: ", ")))"
            HarnessCLI.printLine("  \(RunReport.shown(change.reference, from: currentDirectory))\(also)")
            // The ledger says so, so that the report and a second accept find nothing left.
            let entry = SnapshotLedger.Entry.snapshot(change.reference, owner: change.owner, outcome: .recorded, actual: nil,
                                                      companions: change.companions.map { .init(reference: $0.reference, actual: nil) })
            for run in runs {
                try? SnapshotLedger.append(entry, inArtifacts: URL(fileURLWithPath: run, isDirectory: true))
            }
        }
        return status
    }

    /// Whether `name` names `change`: its flow's path or name, its test's name or id, the
    /// snapshot (`<owner>.<name>`) or its reference's path (absolute or from here).
    private static func matches(_ name: String, _ change: SnapshotReview.Change, currentDirectory: String) -> Bool {
        let reference = URL(fileURLWithPath: change.reference)
        let names = SnapshotReview.names(of: change.owner)
            .union([reference.deletingPathExtension().lastPathComponent, reference.lastPathComponent])
        if names.contains(name) { return true }
        let path = SnapshotReview.normalized(FlowPaths.join(currentDirectory, name))
        return path == SnapshotReview.normalized(change.reference) || path == SnapshotReview.normalized(change.owner.file)
    }

    /// Copies `source` over `destination` (its folder created), replacing it atomically.
    private static func copy(_ source: String, over destination: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: source))
        let url = URL(fileURLWithPath: destination)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url, options: .atomic)
    }
}
