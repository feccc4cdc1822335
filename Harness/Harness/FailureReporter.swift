import Foundation
import HarnessCore
import HarnessSystem
import Testing
import XCTest

/// Reports a test failure to whichever test framework is running.
///
/// Under Swift Testing it records an `Issue` at the given location; under XCTest it calls
/// `XCTFail` with the location's file and line. Every assertion of the harness goes through
/// ``fail(_:at:)`` (or, to stop the test as well, ``failAndStop(_:at:throwing:)``), so each
/// failure points at the line that made the expectation.
package enum FailureReporter {
    /// Records a failure with `message` at `location`.
    package static func fail(_ message: String, at location: SourceCodeLocation) {
        if let override = TaskOverride.current {
            override(message, location)
        } else if Test.current != nil {
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation(location))
        } else {
            XCTFail(message, file: location.filePath, line: location.line)
        }
    }

    /// Records a failure with `message` at `location`, then stops the test by throwing, so that
    /// the failure is reported once, at `location`.
    ///
    /// Under Swift Testing it does what `#require` does: it records one issue and throws
    /// `ExpectationFailedError`, the error Swift Testing knows was recorded already and does not
    /// report again where it surfaces (the `TerminalApp.with` line, the test function). The issue
    /// reads as ``fail(_:at:)``'s: `message`, at `location`. Under XCTest, and with a
    /// ``withFailureHandler(_:operation:)`` handler, it reports `message` and throws `error`
    /// (XCTest then also reports the thrown error, as it does any error a test throws).
    ///
    /// ```swift
    /// // A helper's check that must end the test, reported at its caller's line:
    /// guard app.screen.contains("Saved") else {
    ///     try await FailureReporter.failAndStop("not saved:\n\(app.screen.framed())",
    ///                                           at: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line),
    ///                                           throwing: NotSaved())
    /// }
    /// ```
    package static func failAndStop(
        _ message: String,
        at location: SourceCodeLocation,
        throwing error: some Error
    ) async throws -> Never {
        if let override = TaskOverride.current {
            override(message, location)
            throw error
        }
        guard let test = Test.current else {
            XCTFail(message, file: location.filePath, line: location.line)
            throw error
        }
        try await failAndStop(message, at: Self.sourceLocation(location), test: test, throwing: error)
    }

    /// Under Swift Testing: records `message` at `sourceLocation` and throws the error that says
    /// it was recorded already (`error` when there is no test).
    private static func failAndStop(
        _ message: String, at sourceLocation: SourceLocation, test: Test?, throwing error: some Error
    ) async throws -> Never {
        guard let test else { throw error }
        // `#require(false)` records an "expectation failed" issue and throws the error that
        // says so; inside this scope that issue is recorded as a plain one, carrying only the
        // message (as `Issue.record` would), instead of "Expectation failed: Bool(false)".
        let asPlainIssue = IssueHandlingTrait.compactMapIssues { issue in
            guard case .expectationFailed = issue.kind else { return issue }
            var plain = issue
            plain.kind = .unconditional
            return plain
        }
        let thrown = Locked<(any Error)?>(nil)
        try await asPlainIssue.provideScope(for: test, testCase: Test.Case.current) {
            do {
                try #require(Bool(false), Comment(rawValue: message), sourceLocation: sourceLocation)
            } catch {
                thrown.withLock { $0 = error }
            }
        }
        throw thrown.withLock { $0 } ?? error
    }

    /// Rethrows `error`, first recording it at the line of the call that failed when it knows that
    /// line (a ``SourceLocatedError`` with a site: a wait, a `verify`) and a Swift Testing test
    /// runs: then, as ``failAndStop(_:at:throwing:)``, the issue is recorded once, at that line,
    /// and the error thrown is the one Swift Testing does not report again where it surfaces
    /// (the test function's line). Anything else, and any error under XCTest, is rethrown as it
    /// is (XCTest reports it where the test throws it, with its place in the message).
    ///
    /// The front ends' scopes (`TerminalApp.with`, `TerminalSession.withSession`, `PipedApp.with`)
    /// end with it, so that a failed wait in their body is reported at the wait.
    package static func rethrowAtItsLine(_ error: any Error) async throws -> Never {
        throw await recordedAtItsLine(error) ?? error
    }

    /// Records `error` at the line of the call that failed, as ``rethrowAtItsLine(_:)`` does,
    /// and returns the error to throw instead; nil when it is not recorded (no Swift Testing
    /// test runs, a ``withFailureHandler(_:operation:)`` handler is set, or the error knows no line).
    static func recordedAtItsLine(_ error: any Error) async -> (any Error)? {
        guard TaskOverride.current == nil, let test = Test.current,
              let located = error as? any SourceLocatedError, let site = located.failureSite
        else { return nil }
        let sourceLocation = SourceLocation(fileID: site.fileID, filePath: site.filePath, line: site.line, column: site.column)
        do {
            try await failAndStop(located.failureMessage, at: sourceLocation, test: test, throwing: error)
        } catch {
            return error
        }
    }

    private static func sourceLocation(_ location: SourceCodeLocation) -> SourceLocation {
        SourceLocation(
            fileID: String(describing: location.fileID),
            filePath: String(describing: location.filePath),
            line: Int(location.line),
            column: Int(location.column)
        )
    }

    /// Runs `body` with failures sent to `handler` instead of the test framework (for tests of
    /// assertion helpers themselves).
    package static func withFailureHandler<T>(
        _ handler: @escaping @Sendable (String, SourceCodeLocation) -> Void,
        operation body: () throws -> T
    ) rethrows -> T {
        try TaskOverride.$current.withValue(handler, operation: body)
    }

    /// The asynchronous form of ``withFailureHandler(_:operation:)``.
    package static func withFailureHandler<T>(
        _ handler: @escaping @Sendable (String, SourceCodeLocation) -> Void,
        isolation: isolated (any Actor)? = #isolation,
        operation body: () async throws -> T
    ) async rethrows -> T {
        try await TaskOverride.$current.withValue(handler, operation: body, isolation: isolation)
    }

    private enum TaskOverride {
        @TaskLocal static var current: (@Sendable (String, SourceCodeLocation) -> Void)?
    }
}
