import Foundation
import Harness
@testable import HarnessCore
import TestSupport
import Testing

/// `PipedApp`: the same launch arguments and environment as `TerminalApp`, on pipes.
@Suite struct PipedAppTests {
    @Test func argumentsModePassesNetworkStorageClockAndSeedsOnPipes() async throws {
        // The protocol's flags come first, so the program is a script that prints its arguments.
        let folder = try TemporaryDirectory(prefix: "piped").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = folder + "/show"
        try Data("#!/bin/sh\necho \"$@\"; cat; echo \"$GREETING\" >&2\n".utf8).write(to: URL(fileURLWithPath: script))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
        var launch = AppLaunch(executable: script, arguments: ["own-argument"])
        launch.launchProtocol = .arguments
        launch.network = URL(string: "http://127.0.0.1:9")
        launch.frozenClock = Date(timeIntervalSince1970: 1_700_000_000)
        launch.seeds = ["nested/seed.txt": Data("seeded".utf8)]
        launch.environment = ["GREETING": "hello"]
        let app = try PipedApp.launch(launch, standardInput: .text("from stdin\n"))
        defer { app.close(failed: false) }
        let output = try await app.session.waitForExit(timeout: mustSucceedTimeout)
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("--harness-network http://127.0.0.1:9 --harness-storage \(app.sandbox.path)") == true, "\(lines)")
        #expect(lines.first?.contains("--harness-clock 2023-11-14T22:13:20") == true, "\(lines)")
        #expect(lines.first?.hasSuffix(" own-argument") == true, "\(lines)")
        #expect(lines.dropFirst().first == "from stdin")
        #expect(output.standardError == "hello\n")
        #expect(try app.sandbox.readText("nested/seed.txt") == "seeded")
    }

    @Test func withoutTheProtocolNothingIsAddedAndTheBridgeIsRefused() async throws {
        var launch = AppLaunch(executable: "/bin/echo", arguments: ["only", "mine"])
        launch.launchProtocol = .none
        let app = try PipedApp.launch(launch)
        let output = try await app.session.waitForExit(timeout: mustSucceedTimeout)
        #expect(output.standardOutput == "only mine\n")
        let sandbox = app.sandbox.path
        app.close(failed: false)
        app.close(failed: false)
        #expect(!FileManager.default.fileExists(atPath: sandbox))

        launch.launchProtocol = .bridge
        #expect(throws: PipedSessionError.self) { try PipedApp.launch(launch) }
    }

    /// The example of the README, as written there.
    @Test func theReadmeExampleRuns() async throws {
        let launch = AppLaunch(executable: "sort")
        let app = try PipedApp.launch(launch, standardInput: .text("b\na\n"))
        defer { app.close(failed: false) }
        let output = try await app.session.waitForExit()
        #expect(output.standardOutput == "a\nb\n" && output.standardError.isEmpty && output.shellStatus == 0)
    }
}
