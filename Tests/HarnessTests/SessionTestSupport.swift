import Foundation
import Testing
import Harness
@testable import HarnessCore
import TestSupport

/// `/bin/sh -c script` under a terminal of `size`.
func shell(_ script: String, size: TerminalSize = .standard, timeout: Duration = mustSucceedTimeout) -> TerminalSession.Configuration {
    TerminalSession.Configuration(
        executable: "/bin/sh", arguments: ["-c", script], environment: testEnvironment, size: size, defaultTimeout: timeout)
}

/// Runs `body` and returns the error it threw (nil when it did not throw). A wait that fails
/// in it is the test's to examine, not a failure of the test: as in a front end's scope, it is
/// thrown as it is, not recorded at its line (``CallSiteFailures``).
func caughtError<T>(_ body: () async throws -> T) async -> Error? {
    do {
        _ = try await examiningFailures { try await body() }
        return nil
    } catch {
        return error
    }
}
