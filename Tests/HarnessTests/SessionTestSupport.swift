import Foundation
import Testing
import Harness
@testable import HarnessCore

/// A small, predictable environment for programs under test.
let testEnvironment: [String: String] = [
    "PATH": "/usr/local/bin:/usr/bin:/bin",
    "HOME": NSTemporaryDirectory(),
    "LANG": "C.UTF-8",
    "PS1": "$ ",
]

/// `/bin/sh -c script` under a terminal of `size`.
func shell(_ script: String, size: TerminalSize = .standard, timeout: Duration = .seconds(20)) -> TerminalSession.Configuration {
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

/// Whether python3 is installed (some tests use a one-line python program).
let hasPython3 = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
    || (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
        FileManager.default.isExecutableFile(atPath: "\($0)/python3")
    }
