import Foundation
import TestSupport
import HarnessCore
@testable import HarnessFlows
@testable import HarnessSteps

/// Debian's `chromium`, run headless on a page with a time limit; its whole process group is
/// ended when it returns, so no browser process outlives a test.
enum HeadlessChromium {
    /// The browser's path, when installed.
    static let path: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/local/bin/chromium"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Whether the browser is installed (`.ci/run` installs it).
    static var isInstalled: Bool { path != nil }

    /// The page's DOM after its scripts ran (`--dump-dom` with a virtual time budget), with
    /// `arguments` given to the browser first.
    static func dumpDOM(of file: String, arguments: [String] = [], timeout: Duration = .seconds(90)) async throws -> String {
        try await run(arguments + ["--virtual-time-budget=2000", "--dump-dom", "file://" + file], timeout: timeout).standardOutput
    }

    /// Runs the browser headless with `arguments` (and a throwaway profile) and waits for it.
    static func run(_ arguments: [String], timeout: Duration = .seconds(90)) async throws -> PipedProgram.Output {
        guard let path else { throw PipedSessionError.executableNotFound("chromium") }
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("harness-chromium-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: profile) }
        var configuration = PipedSession.Configuration(
            executable: path,
            arguments: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=\(profile)"] + arguments)
        configuration.environment["HOME"] = profile
        let session = try PipedSession.launch(configuration)
        defer { session.terminate() }
        return try await session.waitForExit(timeout: timeout)
    }
}
