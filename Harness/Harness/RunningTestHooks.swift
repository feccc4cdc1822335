import Foundation
import HarnessCore
import HarnessSteps
import HarnessSystem
import Testing
import XCTest

/// The test framework's side of `TerminalApp.with`: whether the running test recorded a failure
/// while the app was open, and the attachments of a failure's files.
///
/// Under Swift Testing (when `Test.current` is set), the body runs inside the scope of an issue
/// handling trait (`IssueHandlingTrait`, public since Swift 6.2) that sees each issue recorded
/// in the body's task and its child tasks, passes it on unchanged and notes whether it is a
/// failure (`Issue.isFailure`: not a known issue, not a warning). Files are attached with
/// `Attachment.record`, so `swift test --attachments-path DIR` writes them to `DIR`.
///
/// Under XCTest, ``XCTestFailureCounter`` counts the failures XCTest reports to its observers;
/// a failure recorded while the body ran counts. XCTest runs one test at a time in a process,
/// so the count is the running test's. Files are attached as `XCTAttachment`s on Darwin; the
/// Linux XCTest has no attachments.
///
/// Limits: an issue recorded before `with` began or after it returned, or in a task that does
/// not inherit the test's task-local values (`Task.detached`), is not seen; nor is a time limit
/// exceeded (Swift Testing records it outside the body).
struct RunningTestHooks: TestFrameworkHooks {
    /// The test's file and function (`#filePath`, `#function` of its `with`).
    var filePath: String
    var function: String
    /// Set when the test is traced (HARNESS_ARTIFACTS or `.harnessTrace`).
    let traceScope: HarnessTrace.Scope?

    init(filePath: String, function: String) {
        self.filePath = filePath
        self.function = function
        self.traceScope = HarnessTrace.Scope(filePath: filePath, function: function)
    }

    var isTraced: Bool { traceScope != nil }

    /// Writes the trace of the whole `with` when the test is traced.
    func finished(_ app: TerminalApp, failure: String?) {
        traceScope?.write(app, failure: failure)
    }

    func finished(_ session: TerminalSession, failure: String?) {
        traceScope?.write(session, failure: failure)
    }

    func finished(_ app: PipedApp, failure: String?) {
        traceScope?.write(app, failure: failure)
    }

    func run<R>(
        isolation: isolated (any Actor)?,
        _ body: () async throws -> R
    ) async -> (outcome: Result<R, any Error>, issueRecorded: Bool) {
        guard let test = Test.current else {
            let before = XCTestFailureCounter.start()
            let outcome = await Self.outcome(of: body, isolation: isolation)
            return (outcome, XCTestFailureCounter.count > before)
        }
        let failed = Locked(false)
        let watch = IssueHandlingTrait.compactMapIssues { issue in
            if issue.isFailure { failed.withLock { $0 = true } }
            return issue
        }
        let box = Locked<Result<R, any Error>?>(nil)
        // The trait's scope takes a @Sendable function; it runs once, in this task, before
        // `provideScope` returns, so the body (not Sendable) is only ever called from here,
        // and back on the caller's isolation.
        nonisolated(unsafe) let body = body
        do {
            try await watch.provideScope(for: test, testCase: Test.Case.current) {
                await Self.run(body, isolation: isolation, into: box)
            }
        } catch {
            return (.failure(error), failed.withLock { $0 })
        }
        return (box.withLock { $0 } ?? .failure(CancellationError()), failed.withLock { $0 })
    }

    func attach(_ files: [HarnessArtifacts.File], prefix: String) {
        if Test.current != nil {
            #if compiler(>=6.2)
            for attachment in Self.attachments(of: files, prefix: prefix) {
                Attachment.record(attachment)
            }
            #endif
        } else {
            #if canImport(Darwin)
            Self.attachToXCTest(files, prefix: prefix)
            #endif
        }
    }

    #if compiler(>=6.2)
    /// The Swift Testing attachments of `files`: each file's exact bytes, named `prefix.NAME`
    /// (`ScreenTests.loads.screen.svg`), so that the folder of `--attachments-path`, which
    /// holds every test's attachments side by side, says whose they are.
    static func attachments(of files: [HarnessArtifacts.File], prefix: String) -> [Attachment<[UInt8]>] {
        files.map { Attachment(Array($0.contents), named: "\(prefix).\($0.name)") }
    }
    #endif

    #if canImport(Darwin)
    /// Adds `files` to the running XCTest test as attachments kept whatever the outcome (not
    /// built on the Linux CI: swift-corelibs-xctest has no `XCTAttachment`).
    static func attachToXCTest(_ files: [HarnessArtifacts.File], prefix: String) {
        let add: @Sendable () -> Void = {
            MainActor.assumeIsolated {
                XCTContext.runActivity(named: "harness: \(prefix) failed") { activity in
                    for file in files {
                        let attachment = XCTAttachment(data: file.contents)
                        attachment.name = "\(prefix).\(file.name)"
                        attachment.lifetime = .keepAlways
                        activity.add(attachment)
                    }
                }
            }
        }
        if Thread.isMainThread { add() } else { DispatchQueue.main.sync(execute: add) }
    }
    #endif

    /// Runs `body` on `isolation` and keeps how it ended in `box`.
    private static func run<R>(
        _ body: () async throws -> R,
        isolation: isolated (any Actor)?,
        into box: Locked<Result<R, any Error>?>
    ) async {
        let outcome = await outcome(of: body, isolation: isolation)
        box.withLock { $0 = outcome }
    }

    /// Runs `body` on `isolation` and returns how it ended; the scope reports the failed waits
    /// in it (``CallSiteFailures``), so that the body may still catch them.
    private static func outcome<R>(
        of body: () async throws -> R,
        isolation: isolated (any Actor)?
    ) async -> Result<R, any Error> {
        do {
            return .success(try await CallSiteFailures.$areReportedAbove.withValue(true, operation: body, isolation: isolation))
        } catch {
            return .failure(error)
        }
    }
}
