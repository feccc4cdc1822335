import Foundation
import HarnessSteps
import HarnessSystem
import Testing

/// A Swift Testing trait that makes the steps of a test (or of every test of a suite) leave
/// the trace `harness run --artifacts` leaves for a flow, in `folder`, as `HARNESS_ARTIFACTS`
/// does for a whole run:
///
/// ```swift
/// @Suite(.harnessTrace(".build/traces")) struct CheckoutTests { ... }
/// ```
///
/// Each run of `AppStep`s (and each flow of ``FlowCases``) then writes its steps with their
/// lines, screens, stub requests, bridge events and recording to `folder/swift-tests/`, and its
/// failure's artifacts to `folder`; `harness merge-reports OUT folder` makes the report. A
/// relative folder is relative to the working directory (the package root under `swift test`).
public struct HarnessTraceTrait: TestTrait, SuiteTrait, TestScoping {
    /// Where the traces go.
    public var folder: String

    /// On a suite, every test in it traces.
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        do {
            // The trait reports the failed waits in its scope, below.
            try await TraceSwitch.$traitFolder.withValue(folder) {
                try await CallSiteFailures.$areReportedAbove.withValue(true) { try await function() }
            }
        } catch {
            // A wait or `verify` that failed outside any `with` is still reported at its line.
            try await FailureReporter.rethrowAtItsLine(error)
        }
    }
}

extension Trait where Self == HarnessTraceTrait {
    /// Traces the steps of this test, or of every test of this suite, into `folder`.
    public static func harnessTrace(_ folder: String) -> HarnessTraceTrait { HarnessTraceTrait(folder: folder) }
}

/// The trace of the running test's apps and sessions, written where ``TraceSwitch`` says.
package enum HarnessTrace {
    /// One traced app or session of a test: its name in reports, its file, where its timeline
    /// goes and since when. Nil when the test is not traced.
    struct Scope: Sendable {
        let name: String
        let filePath: String
        let folder: String
        let startDate = Date()

        init?(filePath: String, function: String) {
            guard let folder = TraceSwitch.folder else { return nil }
            self.name = AppStepRunner.reportName(SnapshotPlace(filePath: filePath, function: function))
            self.filePath = filePath
            self.folder = folder
        }

        func write(_ app: TerminalApp, failure: String?) {
            SessionTraceReport.write(name: name, filePath: filePath, app: app, startDate: startDate, failure: failure, folder: folder)
        }

        func write(_ app: PipedApp, failure: String?) {
            SessionTraceReport.write(name: name, filePath: filePath, pipedApp: app, startDate: startDate, failure: failure, folder: folder)
        }

        func write(_ session: TerminalSession, failure: String?) {
            SessionTraceReport.write(name: name, filePath: filePath, session: session, startDate: startDate, failure: failure,
                                     folder: folder)
        }
    }
}
