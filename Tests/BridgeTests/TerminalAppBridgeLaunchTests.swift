import Foundation
import Harness
import Testing
import TestSupport

/// Launching through `TerminalApp` with the bridge, against the fixture app on a real PTY.
@Suite struct TerminalAppBridgeLaunchTests {
    static func fixture() throws -> AppLaunch {
        var launch = AppLaunch(executable: try BuildProducts.executable(named: "bridge-fixture-app").path)
        launch.launchProtocol = .bridge
        launch.defaultTimeout = mustSucceedTimeout
        launch.size = TerminalSize(cols: 200, rows: 24)
        return launch
    }

    /// The fixture prints its arguments without connecting: that output proves it has no host
    /// (a host connects before the first output), so the launch fails then, with the screen,
    /// not after the wait for ready (an hour here: a test that ends did not wait for it).
    @Test func anAppThatWritesWithoutConnectingFailsAtOnceWithItsScreenAndPassesNoTokenInArguments() async throws {
        var launch = try Self.fixture()
        launch.environment["BRIDGE_FIXTURE_NO_HOST"] = "1"
        launch.readyTimeout = .seconds(3600)
        await #expect {
            _ = try await TerminalApp.launch(launch)
        } throws: { error in
            guard case BridgeError.noHost = error else { return false }
            let text = String(describing: error)
            return text.contains("wrote to its terminal before connecting to the bridge")
                && text.contains("not connecting: --harness-storage ")
                && text.contains("--harness-bridge ") && text.contains("still running")
                && !text.contains("HARNESS_BRIDGE_TOKEN")
                && text.contains("launched with the launch protocol .bridge") && text.contains("`launch.launchProtocol = .none`")
        }
    }

    @Test func anAppThatConnectsIsReadyWithItsBridge() async throws {
        try await TerminalApp.with(try Self.fixture()) { (app: TerminalApp) async throws in
            let bridge = try app.bridge
            #expect(bridge.appName == "bridge-fixture-app")
            #expect(try await bridge.probe("state", as: String.self) == "idle")
        }
    }

    /// Bridge waits that pass no timeout take the launch's `defaultTimeout`, like the screen's
    /// waits, not a fixed 10 s. The waits below fail by waiting (nothing saves, no event of
    /// that name is published), so the launch's short default is what ends them.
    @Test func bridgeWaitsWithoutATimeoutTakeTheLaunchsDefault() async throws {
        var launch = try Self.fixture()
        launch.defaultTimeout = .milliseconds(300)
        try await TerminalApp.with(launch) { (app: TerminalApp) async throws in
            let bridge = try app.bridge
            #expect(bridge.defaultTimeout == .milliseconds(300))
            await #expect {
                _ = try await bridge.spy("database.save", as: [Todo].self).waitForCall()
            } throws: { error in
                (error as? BridgeError)?.failureMessage.hasPrefix("timed out after 0.3 seconds waiting for") == true
            }
            await #expect {
                _ = try await bridge.nextEvent(named: "never-published")
            } throws: { error in
                (error as? BridgeError)?.failureMessage.hasPrefix("timed out after 0.3 seconds waiting for") == true
            }
            // A call that passes its own timeout keeps it.
            #expect(try await bridge.probe("state", as: String.self, timeout: mustSucceedTimeout) == "idle")
        }
    }

    @Test func aCrashDuringACallSurfacesWithTheExitStatus() async throws {
        try await TerminalApp.with(try Self.fixture()) { (app: TerminalApp) async throws in
            await #expect {
                try await app.bridge.call("crash", timeout: .seconds(30))
            } throws: { error in
                String(describing: error).contains("signal 6")
            }
        }
    }
}
