import Foundation
import HarnessCore
import Testing
import XCTest

/// Reports a test failure to whichever test framework is running.
///
/// Under Swift Testing it records an `Issue` at the given location; under XCTest it calls
/// `XCTFail` with the location's file and line. Every assertion of the harness goes through
/// ``fail(_:at:)``, so each failure points at the line that made the expectation.
public enum FailureReporter {
    /// Records a failure with `message` at `location`.
    public static func fail(_ message: String, at location: SourceCodeLocation) {
        if let override = TaskOverride.current {
            override(message, location)
        } else if Test.current != nil {
            Issue.record(
                Comment(rawValue: message),
                sourceLocation: SourceLocation(
                    fileID: String(describing: location.fileID),
                    filePath: String(describing: location.filePath),
                    line: Int(location.line),
                    column: Int(location.column)
                )
            )
        } else {
            XCTFail(message, file: location.filePath, line: location.line)
        }
    }

    /// Runs `body` with failures sent to `handler` instead of the test framework (for tests of
    /// assertion helpers themselves).
    public static func withFailureHandler<T>(
        _ handler: @escaping @Sendable (String, SourceCodeLocation) -> Void,
        operation body: () throws -> T
    ) rethrows -> T {
        try TaskOverride.$current.withValue(handler, operation: body)
    }

    /// The async form of ``withFailureHandler(_:operation:)-(_,()->T)``.
    public static func withFailureHandler<T>(
        _ handler: @escaping @Sendable (String, SourceCodeLocation) -> Void,
        isolation: isolated (any Actor)? = #isolation,
        operation body: () async throws -> T
    ) async rethrows -> T {
        try await TaskOverride.$current.withValue(handler, operation: body)
    }

    private enum TaskOverride {
        @TaskLocal static var current: (@Sendable (String, SourceCodeLocation) -> Void)?
    }
}
