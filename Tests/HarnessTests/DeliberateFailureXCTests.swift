import Harness
import XCTest

/// The XCTest side of ``DeliberateFailureTests``: an `XCTAssert` that fails inside
/// `TerminalApp.with` keeps the artifacts. Skipped unless `HARNESS_DELIBERATE_FAILURES=1`
/// (`Scripts/attachments-check.sh`).
final class DeliberateFailureXCTests: XCTestCase {
    func testAFailedAssertionInsideWith() async throws {
        try XCTSkipUnless(DeliberateFailures.enabled, "only run by Scripts/attachments-check.sh")
        try await TerminalApp.with(DeliberateFailures.launch()) { app in
            try await app.waitFor(text: "deliberate screen")
            XCTAssertTrue(app.screen.contains("a line the app never printed"))
        }
    }
}
