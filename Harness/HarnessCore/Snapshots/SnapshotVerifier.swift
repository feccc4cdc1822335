import Foundation

/// One snapshot comparison: finds the files, applies the record mode, writes what it must.
///
/// The engine of `verifySnapshot` (module Harness), which adds the running test, and of the
/// flows' snapshots, which have no test framework around them.
package struct SnapshotVerifier {
    package var filePath: String
    package var function: String
    package var name: String?
    package var record: SnapshotRecordMode?
    package var snapshotDirectory: URL?
    package var artifactsDirectory: URL?
    /// The running test, when a test framework runs one: it keys the numbering of unnamed snapshots.
    package var test: SnapshotTestContext?
    package var environment: [String: String]
    /// Who owns the reference, for the snapshot ledger: by default the test function of
    /// ``filePath`` (a flow sets itself).
    package var owner: SnapshotLedger.Owner?
    /// The folder whose layout the actual snapshots keep under the artifacts folder (a flow
    /// run's folder, so that `a/login.flow` and `b/login.flow` keep theirs apart); nil: the
    /// package holding ``filePath``.
    package var mirrorRoot: URL?

    package init(
        filePath: String, function: String, name: String?, record: SnapshotRecordMode?,
        snapshotDirectory: URL?, artifactsDirectory: URL?, test: SnapshotTestContext? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment, owner: SnapshotLedger.Owner? = nil,
        mirrorRoot: URL? = nil
    ) {
        self.owner = owner
        self.mirrorRoot = mirrorRoot
        self.filePath = filePath
        self.function = function
        self.name = name
        self.record = record
        self.snapshotDirectory = snapshotDirectory
        self.artifactsDirectory = artifactsDirectory
        self.test = test
        self.environment = environment
    }

    package func verify<Value, Format>(_ value: Value, as strategy: SnapshotStrategy<Value, Format>) -> String? {
        var note = LedgerNote()
        var message: String?
        do {
            message = try run(value, as: strategy, note: &note)
        } catch {
            message = "Snapshot failed: \(error)"
        }
        // Every comparison that found its reference is written in the ledger of the artifacts
        // folder: `harness snapshots` must never call a reference that was compared unused.
        if let reference = note.reference {
            let owner = owner ?? SnapshotLedger.Owner(file: filePath, function: Self.testName(of: function), label: test?.id)
            let entry = SnapshotLedger.Entry.snapshot(
                reference.path, owner: owner, outcome: note.outcome, actual: note.actual?.path,
                companions: note.companions.map { SnapshotLedger.Companion(reference: $0.reference.path, actual: $0.actual?.path) })
            do {
                try SnapshotLedger.append(entry, inArtifacts: artifactsRoot)
            } catch {
                message = (message.map { $0 + "\n" } ?? "") + "The snapshot could not be written in the ledger: \(error)"
            }
        }
        return message
    }

    /// The artifacts folder: ``artifactsDirectory``, else ``HarnessArtifacts``'s for the test file.
    private var artifactsRoot: URL {
        artifactsDirectory ?? HarnessArtifacts.directory(forTestFile: filePath, environment: environment)
    }

    /// What a comparison did, for the ledger.
    private struct LedgerNote {
        var reference: URL?
        var outcome = SnapshotLedger.Outcome.failed
        var actual: URL?
        var companions: [(reference: URL, actual: URL?)] = []
    }

    private func run<Value, Format>(
        _ value: Value, as strategy: SnapshotStrategy<Value, Format>, note: inout LedgerNote
    ) throws(SnapshotError) -> String? {
        let mode: SnapshotRecordMode
        if let record { mode = record } else { mode = try SnapshotRecordMode.fromEnvironment(environment) }
        let testName = Self.testName(of: function)

        let snapshotName: String
        if let name {
            snapshotName = Self.sanitized(name)
        } else {
            if let test, test.isParameterized {
                return "Snapshot in the parameterized test \(testName) needs a name (named:): numbering "
                    + "would mix up the cases, which run in any order"
            }
            let key = "\(test?.id ?? "")|\(filePath)|\(function)"
            snapshotName = String(SnapshotCounter.shared.next(for: key))
        }

        let stem = "\(testName).\(snapshotName)"
        let reference = referenceURL(stem: stem, pathExtension: strategy.pathExtension)
        let label = "\"\(stem)\""
        note.reference = reference

        // The actual snapshot and its companions.
        let actual: Format
        do {
            actual = try strategy.snapshot(value)
        } catch let error as SnapshotError {
            throw error
        } catch {
            throw SnapshotError.snapshotFailed(reason: "\(error)")
        }
        let actualData = strategy.diffing.toData(actual)
        var companions: [(pathExtension: String, data: Data)] = []
        for companion in strategy.companions {
            do {
                companions.append((companion.pathExtension, try companion.render(value)))
            } catch {
                throw SnapshotError.snapshotFailed(reason: "companion .\(companion.pathExtension): \(error)")
            }
        }
        let companionURL = { (file: URL, pathExtension: String) in
            file.deletingPathExtension().appendingPathExtension(pathExtension)
        }
        note.companions = companions.map { (companionURL(reference, $0.pathExtension), nil) }

        /// Writes the reference and its companions; returns a line naming them.
        func writeReference() throws(SnapshotError) -> String {
            try Self.write(actualData, to: reference)
            var written = [reference.path]
            for companion in companions {
                let url = companionURL(reference, companion.pathExtension)
                try Self.write(companion.data, to: url)
                written.append(url.path)
            }
            return written.joined(separator: "\n  ")
        }

        /// Writes the actual snapshot and its companions as artifacts; returns lines naming them.
        func writeArtifacts() -> String {
            let root = artifactsRoot
            let packageRoot = mirrorRoot ?? HarnessArtifacts.packageRoot(containing: filePath)
            let file = HarnessArtifacts.mirror(reference, packageRoot: packageRoot, in: root)
            var lines: [String] = []
            do {
                try Self.write(actualData, to: file)
                note.actual = file
                lines.append("actual:    \(file.path)")
                for (index, companion) in companions.enumerated() {
                    let url = companionURL(file, companion.pathExtension)
                    try Self.write(companion.data, to: url)
                    note.companions[index].actual = url
                    lines.append("actual \(companion.pathExtension): \(url.path)")
                }
            } catch {
                lines.append("(the actual snapshot could not be kept: \(error))")
            }
            return lines.joined(separator: "\n")
        }

        // No reference yet.
        guard FileManager.default.fileExists(atPath: reference.path) else {
            guard mode.recordsMissing else {
                return """
                    No reference snapshot \(label) at \(reference.path); record mode '\(mode)' does not record \
                    (set HARNESS_RECORD=missing to record it).
                    \(writeArtifacts())
                    """
            }
            let written = try writeReference()
            note.outcome = .recorded
            return """
                No reference snapshot \(label) was found; recorded it (record mode '\(mode)'):
                  \(written)
                Check it, then run the test again.
                """
        }

        let referenceData: Data
        do {
            referenceData = try Data(contentsOf: reference)
        } catch {
            throw SnapshotError.readFailed(path: reference.path, reason: error.localizedDescription)
        }
        guard let expected = strategy.diffing.fromData(referenceData) else {
            if mode == .all || mode == .failed {
                let written = try writeReference()
                note.outcome = .recorded
                return "The reference snapshot \(label) could not be decoded; recorded it again (record mode '\(mode)'):\n  \(written)"
            }
            throw SnapshotError.unreadableReference(path: reference.path)
        }
        let difference = strategy.diffing.diff(expected, actual)

        if mode == .all {
            let written = try writeReference()
            note.outcome = .recorded
            let change = difference.map { "It changed:\n\($0)" } ?? "It did not change."
            return """
                Record mode 'all' recorded snapshot \(label) (the test fails so a recording run never passes):
                  \(written)
                \(change)
                """
        }

        guard let difference else {
            note.outcome = .matched
            // Matching text: put back a companion (the SVG) that was deleted, when recording is allowed.
            if mode.recordsMissing {
                for companion in companions {
                    let url = companionURL(reference, companion.pathExtension)
                    if !FileManager.default.fileExists(atPath: url.path) {
                        try Self.write(companion.data, to: url)
                    }
                }
            }
            return nil
        }

        let artifacts = writeArtifacts()
        if mode == .failed {
            let written = try writeReference()
            note.outcome = .recorded
            return """
                Snapshot \(label) did not match its reference; recorded the new one (record mode 'failed'):
                  \(written)
                \(artifacts)
                \(difference)
                """
        }
        return """
            Snapshot \(label) does not match its reference.
            reference: \(reference.path)
            \(artifacts)
            \(difference)
            To accept the new snapshot: \(acceptCommand(reference: reference))
            """
    }

    /// The command that accepts this comparison's actual snapshot (what the run report shows
    /// too): `harness snapshots accept --run ARTIFACTS REFERENCE`, paths relative to the current
    /// folder when inside it.
    private func acceptCommand(reference: URL) -> String {
        let here = FileManager.default.currentDirectoryPath
        func shown(_ path: String) -> String {
            let relative = path.hasPrefix(here + "/") ? String(path.dropFirst(here.count + 1)) : path
            let plain = !relative.isEmpty && relative.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "/._-+=:,@".contains($0)) }
            return plain ? relative : "'" + relative.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        return "harness snapshots accept --run \(shown(artifactsRoot.path)) \(shown(reference.path))"
    }

    // MARK: - Helpers

    /// The reference file of a named snapshot: `__Snapshots__/<TestFile>/<test>.<name>.<ext>`
    /// beside the test file, or in ``snapshotDirectory`` when set. Nil for an unnamed snapshot.
    package func referenceURL(pathExtension: String) -> URL? {
        guard let name else { return nil }
        return referenceURL(stem: "\(Self.testName(of: function)).\(Self.sanitized(name))", pathExtension: pathExtension)
    }

    private func referenceURL(stem: String, pathExtension: String) -> URL {
        let testFile = URL(fileURLWithPath: filePath)
        let folder = snapshotDirectory ?? testFile.deletingLastPathComponent()
            .appendingPathComponent("__Snapshots__", isDirectory: true)
            .appendingPathComponent(testFile.deletingPathExtension().lastPathComponent, isDirectory: true)
        return folder.appendingPathComponent("\(stem).\(pathExtension)")
    }

    /// The test's name from `#function`: `loads()` and `loads(size:)` give `loads`.
    package static func testName(of function: String) -> String {
        let base = function.split(separator: "(", maxSplits: 1).first.map(String.init) ?? function
        return sanitized(base.isEmpty ? "snapshot" : base)
    }

    /// `name` safe as part of a file name: characters other than letters, digits, `-`, `_` and
    /// `.` become `-`.
    package static func sanitized(_ name: String) -> String {
        let cleaned = String(name.unicodeScalars.map { scalar -> Character in
            let allowed = (scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                || scalar == "-" || scalar == "_" || scalar == ".") && scalar != "/"
            return allowed ? Character(scalar) : "-"
        })
        return cleaned.isEmpty ? "-" : cleaned
    }

    /// Writes `data` to `url` atomically, creating its folder.
    package static func write(_ data: Data, to url: URL) throws(SnapshotError) {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
        } catch {
            throw SnapshotError.writeFailed(path: url.path, reason: error.localizedDescription)
        }
    }
}

/// What the test framework says about the running test.
package struct SnapshotTestContext: Sendable {
    /// The test's identity (Swift Testing's `Test.ID`), so tests running in parallel do not
    /// share the numbers of their unnamed snapshots.
    package var id: String
    /// True in a case of a parameterized test: the cases run in any order, so its unnamed
    /// snapshots cannot be numbered.
    package var isParameterized: Bool

    package init(id: String, isParameterized: Bool) {
        self.id = id
        self.isParameterized = isParameterized
    }
}
