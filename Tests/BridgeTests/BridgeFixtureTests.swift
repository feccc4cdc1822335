import Foundation
import HarnessWire
import Testing
import TestSupport
import Harness
@testable import HarnessCore

/// End to end: the fixture app as a real child process, talking over the bridge.
@Suite struct BridgeFixtureTests {
    @Test func probeHandlerSpyAndEvents() async throws {
        let listener = try BridgeListener()
        defer { listener.close() }
        let fixture = try FixtureProcess(listener: listener)
        defer { fixture.terminate() }
        let app = try await listener.readyBridge()
        #expect(app.appName == "bridge-fixture-app")
        #expect(app.appPID == Int(fixture.pid))

        #expect(try await app.probe("state", as: String.self) == "idle")
        let saves = app.spy("database.save", as: [Todo].self)
        #expect(try await saves.count == 0)
        #expect(try await app.call("save", Todo.sample(200), as: Int.self) == 200)
        #expect(try await saves.waitForCall(timeout: mustSucceedTimeout) == Todo.sample(200))
        #expect(try await saves.calls == [Todo.sample(200)])
        #expect(try await saves.last == Todo.sample(200))

        #expect(try await app.call("given", "error", as: String.self) == "error")
        #expect(try await app.probe("state", as: String.self) == "error")
        let states = try await app.nextEvents(2, named: "state", timeout: mustSucceedTimeout)
        #expect(try states.map { try $0.decode(as: String.self) } == ["idle", "error"])

        let names = try await app.names()
        #expect(names.spies == ["database.save"])
        #expect(names.probes == ["malformed", "state"])
        #expect(names.handlers.contains("given"))
        #expect(names.handlers == names.handlers.sorted())
        // Every list is sorted, as docs/PROTOCOL.md says, the built-ins too.
        #expect(names.builtIns == ["__echo", "__names", "__spy.calls", "__spy.count"])
    }

    @Test func appCrashingMidCallSurfacesAsAppExited() async throws {
        // No exit grace fallback and a long call timeout: only the exit report can end the call quickly.
        let listener = try BridgeListener(exitGrace: .seconds(60), diagnostics: { "screen: (fixture has none)" })
        defer { listener.close() }
        let fixture = try FixtureProcess(listener: listener)
        defer { fixture.terminate() }
        let app = try await listener.readyBridge()
        let clock = ContinuousClock()
        let start = clock.now
        do {
            try await app.call("crash", timeout: .seconds(60))
            Issue.record("the crash call returned")
        } catch let error as BridgeError {
            guard case .appExited(let status, let during, let diagnostics) = error else {
                Issue.record("expected appExited, got \(error)")
                return
            }
            #expect(status.contains("signal \(SIGABRT)"))
            #expect(during == "call 'crash'")
            #expect(diagnostics == "screen: (fixture has none)")
            #expect(error.description.contains("during call 'crash'"))
        }
        print("crash surfaced after \(clock.now - start)")
        // Later calls fail at once too.
        await #expect(throws: BridgeError.self) { try await app.probe("state", as: String.self) }
    }

    @Test(arguments: ["wrong", ""])
    func wrongOrMissingTokenIsRefused(token: String) async throws {
        let listener = try BridgeListener()
        defer { listener.close() }
        let fixture = try FixtureProcess(
            arguments: listener.arguments, environment: token.isEmpty ? [:] : ["HARNESS_BRIDGE_TOKEN": token],
            listener: listener)
        defer { fixture.terminate() }
        do {
            _ = try await listener.readyBridge()
            Issue.record("an app with a bad token got ready")
        } catch BridgeError.authenticationFailed(let reason, _) {
            #expect(reason.contains(token.isEmpty ? "no token" : "wrong token"))
        }
        // The fixture was refused; it says so and exits 3.
        #expect(try await fixture.waitForExit().status == .exited(3))
    }

    @Test func hostIsInertWithoutHarnessArguments() async throws {
        let fixture = try FixtureProcess(arguments: ["inert-report", "--app-flag"], environment: [:], listener: nil)
        defer { fixture.terminate() }
        let output = try await fixture.waitForExit().standardOutput
        let report = try JSONDecoder().decode([String: String].self, from: Data(output.utf8))
        #expect(report["hostIsNil"] == "true")
        #expect(report["optionsIsNil"] == "true")
        #expect(report["fdsBefore"] == report["fdsAfter"])
        #expect(report["threadsBefore"] == report["threadsAfter"])
        #expect(report["remaining"] == "inert-report --app-flag")
    }

    @Test func neverConnectedTimesOutWithDiagnostics() async throws {
        let listener = try BridgeListener(diagnostics: { "exit status: still running" })
        defer { listener.close() }
        do {
            _ = try await listener.waitForReady(timeout: .milliseconds(100))
            Issue.record("ready without an app")
        } catch BridgeError.neverConnected(_, let diagnostics) {
            #expect(diagnostics == "exit status: still running")
        }
    }

    @Test func appExitBeforeConnectingFailsTheReadyWait() async throws {
        let listener = try BridgeListener()
        defer { listener.close() }
        // The fixture exits at once: its arguments name no bridge.
        let fixture = try FixtureProcess(arguments: [], environment: [:], listener: listener)
        defer { fixture.terminate() }
        await #expect {
            _ = try await listener.waitForReady(timeout: .seconds(60))
        } throws: { error in
            guard case BridgeError.appExited(let status, _, _) = error else { return false }
            return status == "exited with code 0"
        }
    }
}
