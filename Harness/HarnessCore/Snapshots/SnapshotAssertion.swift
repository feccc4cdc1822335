import Foundation
import Testing

// MARK: - Verify

/// Compares a snapshot of `value` with its reference file and returns the failure message, or
/// `nil` when it matches. Writes the reference (and its companion files) when the record mode
/// says so, and the actual snapshot to the artifacts folder when it does not match.
///
/// The reference is `__Snapshots__/<TestFile>/<test>.<name>.<ext>` beside the test file, where
/// `<test>` is the calling function's name and `<name>` is `name` or a counter (1, 2, ...) of
/// the test's unnamed snapshots.
///
/// - Parameters:
///   - value: What to snapshot.
///   - strategy: How (``SnapshotStrategy``): `.framedScreen`, `.styledScreen`, `.json`, `.dump`, `.lines`...
///   - name: The snapshot's name in its file name; `nil` numbers it.
///   - record: The record mode; `nil` reads `HARNESS_RECORD` (see ``SnapshotRecordMode``).
///   - snapshotDirectory: The folder holding the references, instead of `__Snapshots__/<TestFile>`.
///   - artifactsDirectory: Where actual snapshots go on failure, instead of ``HarnessArtifacts``.
public func verifySnapshot<Value, Format>(
    of value: Value,
    as strategy: SnapshotStrategy<Value, Format>,
    named name: String? = nil,
    record: SnapshotRecordMode? = nil,
    snapshotDirectory: URL? = nil,
    artifactsDirectory: URL? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    function: String = #function,
    line: UInt = #line,
    column: UInt = #column
) -> String? {
    SnapshotVerifier(
        filePath: "\(filePath)", function: function, name: name, record: record,
        snapshotDirectory: snapshotDirectory, artifactsDirectory: artifactsDirectory
    ).verify(value, as: strategy)
}

// MARK: - Assert

/// Asserts that a snapshot of `value` matches its reference file, reporting a failure at the
/// caller's file and line through Swift Testing or XCTest, whichever runs the test.
///
/// See ``verifySnapshot(of:as:named:record:snapshotDirectory:artifactsDirectory:fileID:filePath:function:line:column:)``
/// for the files and record modes.
///
/// ```swift
/// @Test func settingsEncode() {
///     assertSnapshot(of: Settings.default, as: .json)   // __Snapshots__/SettingsTests/settingsEncode.1.json
/// }
/// ```
public func assertSnapshot<Value, Format>(
    of value: Value,
    as strategy: SnapshotStrategy<Value, Format>,
    named name: String? = nil,
    record: SnapshotRecordMode? = nil,
    snapshotDirectory: URL? = nil,
    artifactsDirectory: URL? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    function: String = #function,
    line: UInt = #line,
    column: UInt = #column
) {
    if let message = verifySnapshot(
        of: value, as: strategy, named: name, record: record,
        snapshotDirectory: snapshotDirectory, artifactsDirectory: artifactsDirectory,
        fileID: fileID, filePath: filePath, function: function, line: line, column: column
    ) {
        FailureReporter.fail(message, at: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }
}

// MARK: - The work

/// One snapshot comparison: finds the files, applies the record mode, writes what it must.
struct SnapshotVerifier {
    var filePath: String
    var function: String
    var name: String?
    var record: SnapshotRecordMode?
    var snapshotDirectory: URL?
    var artifactsDirectory: URL?
    var environment: [String: String] = ProcessInfo.processInfo.environment

    func verify<Value, Format>(_ value: Value, as strategy: SnapshotStrategy<Value, Format>) -> String? {
        do {
            return try run(value, as: strategy)
        } catch {
            return "Snapshot failed: \(error)"
        }
    }

    private func run<Value, Format>(_ value: Value, as strategy: SnapshotStrategy<Value, Format>) throws(SnapshotError) -> String? {
        let mode: SnapshotRecordMode
        if let record { mode = record } else { mode = try SnapshotRecordMode.fromEnvironment(environment) }
        let testName = Self.testName(of: function)

        let snapshotName: String
        if let name {
            snapshotName = Self.sanitized(name)
        } else {
            if let testCase = Test.Case.current, testCase.isParameterized {
                return "Snapshot in the parameterized test \(testName) needs a name (named:): numbering "
                    + "would mix up the cases, which run in any order"
            }
            let key = "\(Test.current.map { String(describing: $0.id) } ?? "")|\(filePath)|\(function)"
            snapshotName = String(SnapshotCounter.shared.next(for: key))
        }

        let testFile = URL(fileURLWithPath: filePath)
        let folder = snapshotDirectory ?? testFile.deletingLastPathComponent()
            .appendingPathComponent("__Snapshots__", isDirectory: true)
            .appendingPathComponent(testFile.deletingPathExtension().lastPathComponent, isDirectory: true)
        let stem = "\(testName).\(snapshotName)"
        let reference = folder.appendingPathComponent("\(stem).\(strategy.pathExtension)")
        let label = "\"\(stem)\""

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
            let root = artifactsDirectory ?? HarnessArtifacts.directory(forTestFile: filePath, environment: environment)
            let packageRoot = HarnessArtifacts.packageRoot(containing: filePath)
            let file = HarnessArtifacts.mirror(reference, packageRoot: packageRoot, in: root)
            var lines: [String] = []
            do {
                try Self.write(actualData, to: file)
                lines.append("actual:    \(file.path)")
                for companion in companions {
                    let url = companionURL(file, companion.pathExtension)
                    try Self.write(companion.data, to: url)
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
                return "The reference snapshot \(label) could not be decoded; recorded it again (record mode '\(mode)'):\n  \(written)"
            }
            throw SnapshotError.unreadableReference(path: reference.path)
        }
        let difference = strategy.diffing.diff(expected, actual)

        if mode == .all {
            let written = try writeReference()
            let change = difference.map { "It changed:\n\($0)" } ?? "It did not change."
            return """
                Record mode 'all' recorded snapshot \(label) (the test fails so a recording run never passes):
                  \(written)
                \(change)
                """
        }

        guard let difference else {
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
            To accept the new snapshot, run the test again with HARNESS_RECORD=failed.
            """
    }

    // MARK: - Helpers

    /// The test's name from `#function`: `loads()` and `loads(size:)` give `loads`.
    static func testName(of function: String) -> String {
        let base = function.split(separator: "(", maxSplits: 1).first.map(String.init) ?? function
        return sanitized(base.isEmpty ? "snapshot" : base)
    }

    /// `name` safe as part of a file name: characters other than letters, digits, `-`, `_` and
    /// `.` become `-`.
    static func sanitized(_ name: String) -> String {
        let cleaned = String(name.unicodeScalars.map { scalar -> Character in
            let allowed = (scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                || scalar == "-" || scalar == "_" || scalar == ".") && scalar != "/"
            return allowed ? Character(scalar) : "-"
        })
        return cleaned.isEmpty ? "-" : cleaned
    }

    /// Writes `data` to `url` atomically, creating its folder.
    static func write(_ data: Data, to url: URL) throws(SnapshotError) {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
        } catch {
            throw SnapshotError.writeFailed(path: url.path, reason: error.localizedDescription)
        }
    }
}
