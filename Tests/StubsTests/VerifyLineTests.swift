import Foundation
import Harness
import HarnessSystem
import Stubs
import Testing
import TestSupport

/// A failed `server.verify` (or `waitForRequest`) carries its caller's place; inside `TerminalApp.with` the test's
/// issue is recorded once, there, and no "Caught error" issue follows at the test's line.
@Suite struct VerifyLineTests {
    @Test func theErrorCarriesTheVerifyLine() throws {
        let server = try StubServer()
        defer { server.stop() }
        let line = #line + 2
        do {
            try server.verify(.get("/never-requested"))
            Issue.record("verify passed with an empty journal")
        } catch let error as StubVerificationError {
            #expect(error.failureSite?.line == line)
            #expect(error.failureSite?.fileID == "StubsTests/VerifyLineTests.swift")
            #expect(error.failureMessage == error.description)
        }
    }

    @Test func aFailedVerifyInsideWithIsReportedAtTheVerify() async throws {
        let server = try StubServer()
        defer { server.stop() }
        var configured = AppLaunch(executable: "/bin/sh", arguments: ["-c", "exec cat"])
        configured.defaultTimeout = mustSucceedTimeout
        let function = "verify-failed"
        defer { try? FileManager.default.removeItem(at: HarnessArtifacts.folder(forTestFile: #filePath, function: function)) }
        let line = Locked(0)
        let launch = configured
        let dropped = try await Self.dropping("/never-requested") {
            let error = await Self.caughtError {
                try await TerminalApp.with(launch, function: function) { _ in
                    line.withLock { $0 = #line + 1 }
                    try server.verify(.get("/never-requested"))
                }
            }
            #expect(error is ExpectationFailedError, "\(String(describing: error))")
        }
        try #require(dropped.count == 1, "\(dropped)")
        #expect(dropped[0].sourceLocation?.fileName == "VerifyLineTests.swift")
        #expect(dropped[0].sourceLocation?.line == line.withLock { $0 })
        #expect(dropped[0].comments.map { $0.rawValue }.joined().hasPrefix("Expected at least 1 request(s) matching"))
    }

    @Test func aFailedRequestWaitInsideWithIsReportedAtTheWait() async throws {
        let server = try StubServer()
        defer { server.stop() }
        var configured = AppLaunch(executable: "/bin/sh", arguments: ["-c", "exec cat"])
        configured.defaultTimeout = mustSucceedTimeout
        let function = "request-wait-failed"
        defer { try? FileManager.default.removeItem(at: HarnessArtifacts.folder(forTestFile: #filePath, function: function)) }
        let line = Locked(0)
        let launch = configured
        let dropped = try await Self.dropping("/never-requested") {
            let error = await Self.caughtError {
                try await TerminalApp.with(launch, function: function) { _ in
                    line.withLock { $0 = #line + 1 }
                    _ = try await server.waitForRequest(matching: .get("/never-requested"), timeout: .milliseconds(1))
                }
            }
            #expect(error is ExpectationFailedError, "\(String(describing: error))")
        }
        try #require(dropped.count == 1, "\(dropped)")
        #expect(dropped[0].sourceLocation?.fileName == "VerifyLineTests.swift")
        #expect(dropped[0].sourceLocation?.line == line.withLock { $0 })
    }

    /// Runs `body` and returns the error it threw (nil when it did not throw).
    static func caughtError(_ body: () async throws -> Void) async -> (any Error)? {
        do { try await body() } catch { return error }
        return nil
    }

    /// Runs `body`, dropping (and returning) the issues whose comments contain `marker`; other
    /// issues are recorded as usual.
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
