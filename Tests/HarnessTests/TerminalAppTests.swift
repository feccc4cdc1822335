import Foundation
import Harness
import Testing
import TestSupport

/// `TerminalApp` with ordinary programs: what the launch protocol passes (its flags come right
/// after the program, see docs/PROTOCOL.md), and how a launch that never reaches "ready" fails.
@Suite struct TerminalAppTests {
    static func launch(_ executable: String, _ arguments: [String] = [], protocol launchProtocol: LaunchProtocol) -> AppLaunch {
        var launch = AppLaunch(executable: executable, arguments: arguments)
        launch.launchProtocol = launchProtocol
        launch.readyTimeout = .milliseconds(400)
        launch.defaultTimeout = mustSucceedTimeout
        launch.size = TerminalSize(cols: 200, rows: 60)
        return launch
    }

    @Test func withoutTheProtocolNothingIsAdded() async throws {
        try await TerminalApp.with(Self.launch("/usr/bin/env", protocol: .none)) { (app: TerminalApp) async throws in
            #expect(try await app.session.waitForExit() == .exited(0))
            let text = app.session.screen.text
            #expect(!text.contains("HARNESS_BRIDGE_TOKEN"))
            #expect(app.connectedBridge == nil)
        }
    }

    /// A newcomer's first test of a program of their own: nothing to configure.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/bc"), "bc is not installed"))
    func anyProgramLaunchesAsItIsByDefault() async throws {
        #expect(AppLaunch(executable: "/usr/bin/bc").launchProtocol == .none)
        try await TerminalApp.with(AppLaunch(executable: "/usr/bin/bc", arguments: ["-q"])) { app in
            try app.type("2+3\r")
            try await app.waitForOutput(text: "5")
            #expect(throws: BridgeError.self) { try app.bridge }
        }
        // Asking for something of the protocol passes its flags, and only them.
        var launch = AppLaunch(executable: "/bin/echo")
        launch.values = ["k": "v"]
        #expect(launch.launchProtocol == .arguments)
        launch.launchProtocol = .none
        #expect(launch.launchProtocol == .none)
    }

    @Test func argumentsModePassesNetworkStorageAndValuesButNoBridge() async throws {
        var launch = Self.launch("/bin/echo", ["own-argument"], protocol: .arguments)
        launch.network = URL(string: "http://127.0.0.1:9")
        launch.values = ["api.timeout": "1"]
        launch.seeds = ["nested/seed.txt": Data("seeded".utf8)]
        try await TerminalApp.with(launch) { (app: TerminalApp) async throws in
            #expect(try await app.session.waitForExit() == .exited(0))
            let line = app.session.screen.line(0)
            #expect(line.hasPrefix("--harness-network http://127.0.0.1:9"))
            #expect(line.contains("--harness-storage \(app.sandbox.path)"))
            #expect(line.contains("--harness-set api.timeout=1"))
            #expect(line.hasSuffix(" own-argument"))
            #expect(!line.contains("--harness-bridge"))
            #expect(try app.sandbox.readText("nested/seed.txt") == "seeded")
        }
    }

    @Test func aProgramThatExitsBeforeReadyFailsWithItsStatus() async throws {
        var launch = Self.launch("/bin/false", protocol: .bridge)
        launch.readyTimeout = .seconds(60)
        await #expect {
            _ = try await TerminalApp.launch(launch)
        } throws: { error in
            String(describing: error).contains("exited with code 1")
        }
    }

    @Test func aFailedLaunchLeavesNoSandboxBehind() async throws {
        // The sandbox is seeded with a uniquely named file: no folder may hold it afterwards.
        let marker = "marker-\(UUID().uuidString)"
        var launch = Self.launch("/nonexistent/program", protocol: .bridge)
        launch.seeds = [marker: Data()]
        await #expect(throws: (any Error).self) { _ = try await TerminalApp.launch(launch) }
        let base = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        let sandboxes = try FileManager.default.contentsOfDirectory(atPath: base).filter { $0.hasPrefix("harness-sandbox") }
        #expect(!sandboxes.contains { FileManager.default.fileExists(atPath: "\(base)/\($0)/\(marker)") })
    }

    struct Deliberate: Error {}

    @Test func aThrowingBodyLeavesTheRecordingAndTheScreenBehind() async throws {
        let folder = HarnessArtifacts.directory(forTestFile: #filePath)
            .appendingPathComponent("TerminalAppTests/aThrowingBodyLeavesTheRecordingAndTheScreenBehind", isDirectory: true)
        try? FileManager.default.removeItem(at: folder)
        var launch = Self.launch("/bin/sh", ["-c", "printf 'state: \\033[31mbroken\\033[0m\\n'; exec cat"], protocol: .none)
        launch.size = TerminalSize(cols: 40, rows: 5)
        await #expect(throws: Deliberate.self) {
            try await TerminalApp.with(launch) { (app: TerminalApp) async throws in
                _ = try await app.session.waitFor(text: "state: broken")
                throw Deliberate()
            }
        }
        let screen = try String(contentsOf: folder.appendingPathComponent("screen.txt"), encoding: .utf8)
        #expect(screen.contains("│state: broken"))
        #expect(screen.contains("fg=red"))
        let cast = try String(contentsOf: folder.appendingPathComponent("recording.cast"), encoding: .utf8)
        #expect(cast.hasPrefix(#"{"version": 2, "width": 40, "height": 5"#))
        #expect(cast.contains("broken"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("screen.svg").path))
    }
}
