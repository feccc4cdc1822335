import Foundation
import Harness
import HarnessSystem
import Stubs
import Testing
import TestSupport

/// A failed `server.verify` carries its caller's place; inside `TerminalApp.with` the test's
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
        var launch = AppLaunch(executable: "/bin/sh", arguments: ["-c", "exec cat"])
        launch.defaultTimeout = mustSucceedTimeout
        let function = "verify-failed"
        defer { try? FileManager.default.removeItem(at: HarnessArtifacts.folder(forTestFile: #filePath, function: function)) }
        let line = Locked(0)
        let dropped = try await Self.dropping("/never-requested") {
            await #expect(throws: ExpectationFailedError.self) {
                try await TerminalApp.with(launch, function: function) { _ in
                    line.withLock { $0 = #line + 1 }
                    try server.verify(.get("/never-requested"))
                }
            }
        }
        try #require(dropped.count == 1, "\(dropped)")
        #expect(dropped[0].sourceLocation?.fileName == "VerifyLineTests.swift")
        #expect(dropped[0].sourceLocation?.line == line.withLock { $0 })
        #expect(dropped[0].comments.map(\.rawValue).joined().hasPrefix("Expected at least 1 request(s) matching"))
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
