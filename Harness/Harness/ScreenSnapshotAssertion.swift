import Foundation
import HarnessCore
import TerminalEmulator

// The screen's own assertions, from before screens were strategies of `assertSnapshot`.

/// Compares a screen with its reference snapshot and returns the failure message, or `nil`.
///
/// The reference is the framed text of the screen (with the style layer when `style` is true),
/// after `masks` are applied; its SVG picture is written beside it whenever the text is written,
/// and both go to the artifacts folder on failure. Files and record modes are as in
/// ``verifySnapshot(of:as:named:record:snapshotDirectory:artifactsDirectory:fileID:filePath:function:line:column:)``.
@available(*, deprecated, message: "use verifySnapshot(of: screen, as: .screen(masks:style:))")
public func verifyScreenSnapshot(
    _ screen: ScreenSnapshot,
    named name: String? = nil,
    masks: [SnapshotMask] = [],
    style: Bool = false,
    record: SnapshotRecordMode? = nil,
    snapshotDirectory: URL? = nil,
    artifactsDirectory: URL? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    function: String = #function,
    line: UInt = #line,
    column: UInt = #column
) -> String? {
    verifySnapshot(
        of: screen, as: .screen(masks: masks, style: style), named: name, record: record,
        snapshotDirectory: snapshotDirectory, artifactsDirectory: artifactsDirectory,
        fileID: fileID, filePath: filePath, function: function, line: line, column: column
    )
}

/// Asserts that a screen matches its reference snapshot (framed text, optionally with the style
/// layer, plus an SVG picture beside it), reporting a failure at the caller's file and line.
///
/// ```swift
/// @Test func idle() async throws {
///     let terminal = Terminal(cols: 40, rows: 10)
///     terminal.feed(output)
///     assertScreenSnapshot(terminal.snapshot(), named: "idle", masks: [.regex(#"\d+ ms"#)], style: true)
///     // __Snapshots__/<TestFile>/idle.idle.txt and idle.idle.svg
/// }
/// ```
@available(*, deprecated, message: "use assertSnapshot(of: screen, as: .screen(masks:style:))")
public func assertScreenSnapshot(
    _ screen: ScreenSnapshot,
    named name: String? = nil,
    masks: [SnapshotMask] = [],
    style: Bool = false,
    record: SnapshotRecordMode? = nil,
    snapshotDirectory: URL? = nil,
    artifactsDirectory: URL? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    function: String = #function,
    line: UInt = #line,
    column: UInt = #column
) {
    assertSnapshot(
        of: screen, as: .screen(masks: masks, style: style), named: name, record: record,
        snapshotDirectory: snapshotDirectory, artifactsDirectory: artifactsDirectory,
        fileID: fileID, filePath: filePath, function: function, line: line, column: column)
}
