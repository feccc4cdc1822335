import Foundation
import HarnessCore
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
        snapshotDirectory: snapshotDirectory, artifactsDirectory: artifactsDirectory,
        test: Test.current.map {
            SnapshotTestContext(id: String(describing: $0.id), isParameterized: Test.Case.current?.isParameterized ?? false)
        }
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

