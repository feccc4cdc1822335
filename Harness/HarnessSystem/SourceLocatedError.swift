/// An error that knows where in the test source the call that failed was written, so that the
/// test framework glue (`Harness`) can record it at that line instead of at the test's.
///
/// It lives here, beneath every module, so that a module linking no test framework (the stub
/// server's `StubVerificationError`, the core's wait errors) can say where it failed without
/// knowing who reports it.
///
/// ```swift
/// struct NotSaved: SourceLocatedError {
///     var failureSite: SourceSite?
///     var failureMessage: String { "not saved" }
/// }
/// ```
public protocol SourceLocatedError: Error {
    /// Where the failed call was written; nil when it is not known.
    var failureSite: SourceSite? { get }
    /// What failed, without the place (the test framework shows the place beside it).
    var failureMessage: String { get }
}

/// A place in a source file, as a call site's `#fileID`, `#filePath`, `#line` and `#column`.
public struct SourceSite: Sendable, Equatable, CustomStringConvertible {
    /// The file as `Module/File.swift`.
    public var fileID: String
    /// The file's full path.
    public var filePath: String
    /// The 1-based line.
    public var line: Int
    /// The 1-based column.
    public var column: Int

    /// Creates a place from a call site's values.
    public init(fileID: String, filePath: String, line: Int, column: Int) {
        (self.fileID, self.filePath, self.line, self.column) = (fileID, filePath, line, column)
    }

    /// `Module/File.swift:42:7`.
    public var description: String { "\(fileID):\(line):\(column)" }
}
