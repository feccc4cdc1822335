import Foundation
@testable import Harness
@testable import HarnessCore
import Testing
import HarnessSystem
import TestSupport

/// When `TerminalApp.with` keeps a failure's files (the recording, the screen as text and SVG):
/// whenever the test recorded a failure while the app was open, not only when the body threw;
/// and what it attaches to the test for `swift test --attachments-path`.
///
/// Each failure these tests cause on purpose carries the word "deliberate" and is dropped by
/// ``dropping(_:_:)`` once `with` has seen it, so the tests pass; any other issue (a second
/// report of the same failure among them) passes through and fails the test.
/// `Scripts/attachments-check.sh` checks the same end to end, with `swift test
/// --attachments-path` and an XCTest test.
@Suite struct FailureArtifactsTests {
    /// What the body of `with` does besides waiting for the app's line.
    enum Recorded: String, CaseIterable, Sendable {
        case nothing, knownIssue, warning, failedExpectation, harnessAssertion, stoppedByAHarnessAssertion, thrownError

        /// Whether the test failed, so that the artifacts must be kept.
        var isFailure: Bool {
            switch self {
            case .nothing, .knownIssue, .warning: false
            case .failedExpectation, .harnessAssertion, .stoppedByAHarnessAssertion, .thrownError: true
            }
        }

        /// How many issues saying "deliberate" it records.
        var deliberateIssues: Int {
            switch self {
            case .nothing, .knownIssue, .thrownError: 0
            case .warning, .failedExpectation, .harnessAssertion, .stoppedByAHarnessAssertion: 1
            }
        }

        /// Records it (or throws) inside the body.
        func happen() async throws {
            switch self {
            case .nothing: break
            case .knownIssue: withKnownIssue { #expect(Bool(false), "a known issue is not a failure") }
            case .warning: Issue.record("deliberate warning", severity: .warning)
            case .failedExpectation: #expect(Bool(false), "deliberate")
            case .harnessAssertion: FailureReporter.fail("deliberate", at: SourceCodeLocation())
            case .stoppedByAHarnessAssertion:
                try await FailureReporter.failAndStop("deliberate", at: SourceCodeLocation(), throwing: Deliberate())
            case .thrownError: throw Deliberate()
            }
        }
    }

    struct Deliberate: Error {}

    static func launch() -> AppLaunch {
        var launch = AppLaunch(executable: "/bin/sh", arguments: ["-c", "printf 'state: \\033[31mbroken\\033[0m\\n'; exec cat"])
        launch.size = TerminalSize(cols: 40, rows: 5)
        launch.defaultTimeout = mustSucceedTimeout
        return launch
    }

    @Test(arguments: Recorded.allCases)
    func artifactsAreKeptExactlyWhenTheTestFailedWhileTheAppWasOpen(_ recorded: Recorded) async throws {
        let function = "kept-when-\(recorded.rawValue)"
        let folder = HarnessArtifacts.folder(forTestFile: #filePath, function: function)
        try? FileManager.default.removeItem(at: folder)
        defer { try? FileManager.default.removeItem(at: folder) }

        let dropped = try await Self.dropping("deliberate") {
            do {
                try await TerminalApp.with(Self.launch(), function: function) { app in
                    try await app.waitFor(text: "state: broken")
                    try await recorded.happen()
                }
            } catch is Deliberate, is ExpectationFailedError {}
        }
        #expect(dropped.count == recorded.deliberateIssues, "\(dropped)")

        let screen = try? String(contentsOf: folder.appendingPathComponent("screen.txt"), encoding: .utf8)
        if recorded.isFailure {
            let screen = try #require(screen, "no screen.txt in \(folder.path)")
            #expect(screen.contains("│state: broken"))
            #expect(screen.contains("fg=red"))
            let cast = try String(contentsOf: folder.appendingPathComponent("recording.cast"), encoding: .utf8)
            #expect(cast.hasPrefix(#"{"version": 2, "width": 40, "height": 5"#))
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("screen.svg").path))
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("screen.png").path))
        } else {
            #expect(screen == nil, "a test that did not fail left \(folder.path)")
        }
    }

    /// What is attached is what is written: the same files, named after the test file and the
    /// test, byte for byte.
    @Test func theAttachmentsAreTheArtifactsNamedAfterTheTest() async throws {
        try await TerminalApp.with(Self.launch()) { app in
            try await app.waitFor(text: "state: broken")
            let files = app.failureArtifacts()
            #expect(files.map(\.name) == ["recording.cast", "screen.txt", "screen.svg", "screen.png"])
            #expect(files[1].text.contains("│state: broken"))
            #expect(files[2].text.contains("<svg "))
            #expect(files.first { $0.name == "screen.png" }?.contents.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) == true)

            let prefix = HarnessArtifacts.testFileName(#filePath) + "." + HarnessArtifacts.testName(#function)
            #expect(prefix == "FailureArtifactsTests.theAttachmentsAreTheArtifactsNamedAfterTheTest")
            let attachments = RunningTestHooks.attachments(of: files, prefix: prefix)
            #expect(attachments.map(\.preferredName) == files.map { "\(prefix).\($0.name)" })
            for (attachment, file) in zip(attachments, files) {
                #expect(try attachment.withUnsafeBytes { Data($0) } == file.contents, "\(file.name)")
            }
        }
    }

    /// The artifacts folder: `<artifacts>/<TestFile>/<test>/`.
    @Test func theFolderIsNamedAfterTheTestFileAndTheTest() {
        let folder = HarnessArtifacts.folder(forTestFile: "/p/Tests/AppTests/ScreenTests.swift", function: "loads(_:size:)",
                                             environment: ["HARNESS_ARTIFACTS": "/tmp/a"])
        #expect(folder.path == "/tmp/a/ScreenTests/loads")
    }

    // MARK: - A failure that stops the test is reported once

    /// One issue, at the given line, reading as the message; the error thrown is the one Swift
    /// Testing does not report again.
    @Test func failAndStopRecordsOneIssueAtItsLocation() async throws {
        let location = SourceCodeLocation(fileID: "App/Flow.swift", filePath: "/p/App/Flow.swift", line: 42, column: 7)
        let dropped = try await Self.dropping("deliberate") {
            await #expect(throws: ExpectationFailedError.self) {
                try await Self.stop("Step 2 failed: deliberate", at: location)
            }
        }
        try #require(dropped.count == 1, "\(dropped)")
        let issue = dropped[0]
        #expect(issue.sourceLocation?.fileID == "App/Flow.swift")
        #expect(issue.sourceLocation?.line == 42 && issue.sourceLocation?.column == 7)
        #expect(issue.comments.map(\.rawValue) == ["Step 2 failed: deliberate"])
        guard case .unconditional = issue.kind else {
            Issue.record("the issue is \(issue.kind), not a plain one like FailureReporter.fail's")
            return
        }
    }

    /// The stop error reaches Swift Testing's runner: it records no second issue for it (the
    /// trait drops only the one failure at line 4242; a "caught error" issue would fail the test).
    @Test(.compactMapIssues { issue in
        issue.comments.contains { $0.rawValue == "deliberate stop" } && issue.sourceLocation?.line == 4242 ? nil : issue
    })
    func aStoppedTestIsReportedOnce() async throws {
        try await FailureReporter.failAndStop("deliberate stop", at: SourceCodeLocation(line: 4242), throwing: Deliberate())
    }

    /// With a failure handler (and under XCTest), the handler gets the message and the given
    /// error is thrown.
    @Test func failAndStopWithAHandlerThrowsTheGivenError() async throws {
        let messages = Locked<[String]>([])
        await #expect(throws: Deliberate.self) {
            try await FailureReporter.withFailureHandler({ message, _ in messages.withLock { $0.append(message) } }) {
                try await Self.stop("stopped", at: SourceCodeLocation())
            }
        }
        #expect(messages.withLock { $0 } == ["stopped"])
    }

    // MARK: - Helpers

    /// `failAndStop` as a function that may return, for `#expect(throws:)`.
    static func stop(_ message: String, at location: SourceCodeLocation) async throws {
        try await FailureReporter.failAndStop(message, at: location, throwing: Deliberate())
    }

    /// Runs `body`, dropping (and returning) the issues whose comments contain `marker`: the
    /// failures a test causes on purpose. Other issues are recorded as usual.
    static func dropping(_ marker: String, _ body: @Sendable () async throws -> Void) async throws -> [Issue] {
        let dropped = Locked<[Issue]>([])
        let scope = IssueHandlingTrait.compactMapIssues { issue in
            guard issue.comments.contains(where: { $0.rawValue.contains(marker) }) else { return issue }
            dropped.withLock { $0.append(issue) }
            return nil
        }
        try await scope.provideScope(for: try #require(Test.current), testCase: Test.Case.current, performing: body)
        return dropped.withLock { $0 }
    }
}
