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

/// Runs `body` and returns the error it threw (nil when it did not throw).
func caughtError<T>(_ body: () async throws -> T) async -> Error? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}
