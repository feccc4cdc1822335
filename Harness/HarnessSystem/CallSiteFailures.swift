/// How a failed call that a test wrote (a wait) is reported at its own line when nothing around
/// it reports it: no front end's scope (`TerminalApp.with`, `TerminalSession.withSession`,
/// `PipedApp.with`), no `.harnessTrace` trait, no step engine.
///
/// A test framework records an error that escapes a test at the test's declaration (Swift
/// Testing: "Caught error" at the `@Test` line), and the modules beneath the glue link no test
/// framework. So a public wait runs its body through ``reporting(_:isolation:_:)``: when the
/// body throws a ``SourceLocatedError`` that knows its line, the test framework glue (the
/// `Harness` module) records the failure there and gives back the error to throw instead, one
/// the framework knows was recorded (Swift Testing's `ExpectationFailedError`, as `#require`
/// throws). Without the glue in the process, or under XCTest, the error is thrown as it is.
///
/// The glue reaches in by conforming ``Recorder`` to ``CallSiteFailureRecording`` in its own
/// module; a dynamic cast finds that conformance at run time, so nothing has to install it
/// before the first wait:
///
/// ```swift
/// // In the glue module:
/// extension CallSiteFailures.Recorder: CallSiteFailureRecording {
///     package static func recorded(_ error: any SourceLocatedError) async -> (any Error)? { ... }
/// }
/// ```
///
/// Only the outermost call reports (a wait made of waits sets ``areReportedAbove`` for the
/// inner ones, which may fail on purpose), and a call written in the harness's own sources is
/// not a test's line: the harness reports its own calls' failures.
package enum CallSiteFailures {
    /// The type the test framework glue makes conform to ``CallSiteFailureRecording``.
    package struct Recorder {}

    /// Set while something above reports the failures of the calls below it: a front end's
    /// scope, the trace trait, or an outer call of the harness.
    @TaskLocal package static var areReportedAbove = false

    /// The glue's recorder, when the process links it.
    static let recorder: (any CallSiteFailureRecording.Type)? = (Recorder.self as Any.Type) as? any CallSiteFailureRecording.Type

    /// The folder of the harness's own sources (`<package>/Harness`, `<package>/Stubs`): a call
    /// written there is the harness's, not a test's.
    static let harnessSources: [String] = {
        var root = "\(#filePath)"
        for _ in 0..<3 { root = String(root[..<(root.lastIndex(of: "/") ?? root.startIndex)]) }
        return [root + "/Harness/", root + "/Stubs/"]
    }()

    /// Runs `body`, a public call of the harness written in `filePath` (its caller's
    /// `#filePath`), and reports a failure it throws at the call's line when nothing above
    /// does (see ``CallSiteFailures``).
    package static func reporting<R>(
        _ filePath: @autoclosure () -> String, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R
    ) async throws -> R {
        guard let recorder, !areReportedAbove else { return try await body() }
        let path = filePath()
        guard !harnessSources.contains(where: { path.hasPrefix($0) }) else { return try await body() }
        do {
            return try await $areReportedAbove.withValue(true, operation: body, isolation: isolation)
        } catch let error as any SourceLocatedError where error.failureSite != nil {
            throw await recorder.recorded(error) ?? error
        }
    }
}

extension CallSiteFailures {
    /// Throws `error`, recorded at its line by the glue first when it knows its line and a test
    /// runs (then the error the test framework does not record again is thrown instead): how a
    /// scope (`TerminalApp.with`, `TerminalSession.withSession`) ends with a failure.
    package static func rethrowAtItsLine(_ error: any Error) async throws -> Never {
        guard let recorder, let located = error as? any SourceLocatedError, located.failureSite != nil else { throw error }
        throw await recorder.recorded(located) ?? error
    }
}

/// What the test framework glue does with a failure that escapes a call a test wrote
/// (``CallSiteFailures``).
package protocol CallSiteFailureRecording: SendableMetatype {
    /// Records `error` at its ``SourceLocatedError/failureSite`` when a test runs and nothing
    /// else reports it, and returns the error to throw instead (one the test framework does not
    /// record again); nil to throw `error` itself.
    static func recorded(_ error: any SourceLocatedError) async -> (any Error)?
}
