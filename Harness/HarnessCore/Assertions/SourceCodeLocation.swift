import HarnessSystem

/// Where in the test source a step, wait or assertion was written, for pointing failures at it.
///
/// Captured from the call site with default arguments (`#fileID`, `#filePath`, `#line`,
/// `#column`) so that a failure is reported on the line that made the expectation.
package struct SourceCodeLocation: Sendable, CustomStringConvertible {
    /// The file as `Module/File.swift`.
    public var fileID: StaticString
    /// The file's full path.
    public var filePath: StaticString
    /// The 1-based line.
    public var line: UInt
    /// The 1-based column.
    public var column: UInt

    /// Creates a location, by default the caller's.
    public init(fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column) {
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
    }

    public var description: String { "\(fileID):\(line):\(column)" }

    /// The same place as a ``SourceSite`` (what errors of modules beneath the core carry).
    package var site: SourceSite {
        SourceSite(fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
    }
}
