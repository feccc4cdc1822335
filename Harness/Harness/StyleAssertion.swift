import HarnessCore
import TerminalEmulator

/// Asserts that `screen` shows `text` with `style` in every cell of at least one occurrence
/// (inside `area` when given), reporting a failure at the caller's line with the message of
/// ``verifyStyle(of:on:in:style:)``: the text, where it is, the expected and the actual style
/// of the first differing cell, and the framed screen.
///
/// ```swift
/// assertStyle(of: "Oops", on: app.screen, style: TextStyle(bold: true, foreground: .named(.red)))
/// ```
public func assertStyle(
    of text: String, on screen: ScreenSnapshot, in area: ScreenArea? = nil, style: TextStyle,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    if let message = verifyStyle(of: text, on: screen, in: area, style: style) {
        FailureReporter.fail(message, at: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }
}
