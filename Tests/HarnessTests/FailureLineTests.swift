import Foundation
@testable import Harness
import HarnessCore
import HarnessSystem
import Testing
import TestSupport

/// A failed wait inside each front end's scope (`TerminalSession.withSession`,
/// `TerminalApp.with`, `PipedApp.with`) is recorded once, at the wait's line, and stops the
/// test with the error Swift Testing does not report again (so no "Caught error" issue at the
/// test's line follows); the failed test's files are kept.
///
/// Each failure is caused on purpose and dropped by ``FailureArtifactsTests/dropping(_:_:)``
/// (by a word of its message) once recorded; any other issue passes through and fails the test.
/// `Scripts/attachments-check.sh` checks the same with `swift test --attachments-path`.
@Suite struct FailureLineTests {
    /// A program that prints one line and exits: a wait for any other text fails at once (the
    /// program ended), whatever the machine's speed.
    static let printsAndExits = "printf 'shown\\n'"

    @Test func aFailedWaitInWithSessionIsReportedAtTheWaitAndItsFilesAreKept() async throws {
        let function = "withSession-failed-wait"
        let folder = HarnessArtifacts.folder(forTestFile: #filePath, function: function)
        try? FileManager.default.removeItem(at: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let line = Locked(0)
        let dropped = try await FailureArtifactsTests.dropping("never-shown") {
            let error = await caughtError {
                try await TerminalSession.withSession(shell(Self.printsAndExits), function: function) { session in
                    line.withLock { $0 = #line + 1 }
                    try await session.waitFor(text: "never-shown")
                }
            }
            #expect(error is ExpectationFailedError, "\(String(describing: error))")
        }
        Self.expectOneIssue(dropped, at: line.withLock { $0 }, saying: "waiting for text \"never-shown\"")
        #expect((contents(of: folder.appendingPathComponent("screen.txt")) ?? "").contains("shown"))
        #expect(!(contents(of: folder.appendingPathComponent("recording.cast")) ?? "").isEmpty)
        #expect((contents(of: folder.appendingPathComponent("screen.svg")) ?? "").contains("<svg "))
    }

    @Test func aFailedWaitInTerminalAppWithIsReportedAtTheWait() async throws {
        var configured = AppLaunch(executable: "/bin/sh", arguments: ["-c", Self.printsAndExits])
        configured.size = TerminalSize(cols: 40, rows: 5)
        configured.defaultTimeout = mustSucceedTimeout
        let function = "terminalApp-failed-wait"
        defer { try? FileManager.default.removeItem(at: HarnessArtifacts.folder(forTestFile: #filePath, function: function)) }
        let line = Locked(0)
        let launch = configured
        let dropped = try await FailureArtifactsTests.dropping("never-shown") {
            let error = await caughtError {
                try await TerminalApp.with(launch, function: function) { app in
                    line.withLock { $0 = #line + 1 }
                    try await app.waitFor(regex: "never-shown")
                }
            }
            #expect(error is ExpectationFailedError, "\(String(describing: error))")
        }
        Self.expectOneIssue(dropped, at: line.withLock { $0 }, saying: "waiting for regex /never-shown/")
    }

    @Test func aFailedWaitInPipedAppWithIsReportedAtTheWaitAndItsOutputIsKept() async throws {
        // The program never exits, so the wait for its exit always runs out of time.
        var configured = AppLaunch(executable: "/bin/sh", arguments: ["-c", "printf 'piped out\\n'; exec sleep 600"])
        configured.defaultTimeout = mustSucceedTimeout
        let function = "pipedApp-failed-wait"
        let folder = HarnessArtifacts.folder(forTestFile: #filePath, function: function)
        try? FileManager.default.removeItem(at: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let line = Locked(0)
        let launch = configured
        let dropped = try await FailureArtifactsTests.dropping("to exit (it still runs)") {
            let error = await caughtError {
                try await PipedApp.with(launch, function: function) { app in
                    line.withLock { $0 = #line + 1 }
                    try await app.session.waitForExit(timeout: .milliseconds(1))
                }
            }
            #expect(error is ExpectationFailedError, "\(String(describing: error))")
        }
        Self.expectOneIssue(dropped, at: line.withLock { $0 }, saying: "waiting for /bin/sh to exit")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("stdout.txt").path))
        #expect((contents(of: folder.appendingPathComponent("status.txt")) ?? "").contains("the app still ran"))
    }

    /// Outside a scope, a test with the `.harnessTrace` trait still gets its failed wait at
    /// the wait's line: the trait's scope reports it.
    @Test func aFailedWaitAfterLaunchIsReportedAtTheWaitUnderTheTraceTrait() async throws {
        try await withTemporaryDirectory { folder in
            let line = Locked(0)
            let test = try #require(Test.current)
            let dropped = try await FailureArtifactsTests.dropping("never-shown") {
                let error = await caughtError {
                    try await HarnessTraceTrait(folder: folder.path).provideScope(for: test, testCase: Test.Case.current) {
                        let session = try TerminalSession.launch(shell(Self.printsAndExits))
                        defer { session.terminate() }
                        line.withLock { $0 = #line + 1 }
                        try await session.waitFor(text: "never-shown")
                    }
                }
                #expect(error is ExpectationFailedError, "\(String(describing: error))")
            }
            Self.expectOneIssue(dropped, at: line.withLock { $0 }, saying: "waiting for text \"never-shown\"")
        }
    }

    /// Outside any scope and trait, a failed wait is recorded at its own line by the wait itself,
    /// and the error it throws is the one Swift Testing does not record again (no "Caught error"
    /// at the test's line follows when it escapes the test).
    @Test func aFailedWaitOutsideAnyScopeIsReportedAtTheWait() async throws {
        let line = Locked(0)
        let dropped = try await FailureArtifactsTests.dropping("never-shown") {
            let session = try TerminalSession.launch(shell(Self.printsAndExits))
            defer { session.terminate() }
            var thrown: (any Error)?
            do {
                line.withLock { $0 = #line + 1 }
                try await session.waitFor(text: "never-shown")
            } catch {
                thrown = error
            }
            #expect(thrown is ExpectationFailedError, "\(String(describing: thrown))")
        }
        Self.expectOneIssue(dropped, at: line.withLock { $0 }, saying: "waiting for text \"never-shown\"")
    }

    /// The same for a piped program's wait.
    @Test func aFailedPipedWaitOutsideAnyScopeIsReportedAtTheWait() async throws {
        let line = Locked(0)
        let dropped = try await FailureArtifactsTests.dropping("to exit (it still runs)") {
            let session = try PipedSession.launch(PipedSession.Configuration(executable: "/bin/sh", arguments: ["-c", "exec sleep 600"]))
            defer { session.terminate() }
            var thrown: (any Error)?
            do {
                line.withLock { $0 = #line + 1 }
                try await session.waitForExit(timeout: .milliseconds(1))
            } catch {
                thrown = error
            }
            #expect(thrown is ExpectationFailedError, "\(String(describing: thrown))")
        }
        Self.expectOneIssue(dropped, at: line.withLock { $0 }, saying: "waiting for /bin/sh to exit")
    }

    /// Direct inputs are journaled at their line, as waits are.
    @Test func inputsAreJournaledAtTheirLine() async throws {
        let session = try TerminalSession.launch(shell("exec cat"))
        defer { session.terminate() }
        session.journal.enable()
        let typed = #line + 1
        try session.type("a")
        let pressed = #line + 1
        try session.press(.enter)
        let pasted = #line + 1
        try session.paste("b")
        let resized = #line + 1
        try await session.resize(cols: 50, rows: 10)
        let lines = session.journal.all.map { "\($0.text) @\($0.file ?? "?"):\($0.line ?? 0)" }
        #expect(lines == [
            "type \"a\" @HarnessTests/FailureLineTests.swift:\(typed)",
            "press enter @HarnessTests/FailureLineTests.swift:\(pressed)",
            "paste \"b\" @HarnessTests/FailureLineTests.swift:\(pasted)",
            "resize 50x10 @HarnessTests/FailureLineTests.swift:\(resized)",
        ])
    }

    /// One issue, at `line` of this file, whose message says `text` and does not repeat the
    /// place (the issue carries it).
    static func expectOneIssue(_ issues: [Issue], at line: Int, saying text: String,
                               sourceLocation: SourceLocation = #_sourceLocation) {
        guard issues.count == 1, let issue = issues.first else {
            Issue.record("expected one issue, got \(issues)", sourceLocation: sourceLocation)
            return
        }
        #expect(issue.sourceLocation?.fileName == "FailureLineTests.swift", sourceLocation: sourceLocation)
        #expect(issue.sourceLocation?.line == line, sourceLocation: sourceLocation)
        let message = issue.comments.map { $0.rawValue }.joined()
        #expect(message.contains(text), "\(message)", sourceLocation: sourceLocation)
        #expect(!message.hasPrefix("HarnessTests/"), "\(message)", sourceLocation: sourceLocation)
    }
}
