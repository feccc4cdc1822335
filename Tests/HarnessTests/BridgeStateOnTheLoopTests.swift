// A bridge's state lives on the event loop: touched from a test's task it stops the process;
// what a test reads synchronously (the app's name, the events, the spy records) is what the
// loop received and published.

import Foundation
import TestSupport
import Testing
@testable import HarnessCore
import HarnessSystem
import HarnessWire

@Suite struct BridgeStateOnTheLoopTests {
    static func makeClient() -> BridgeClient {
        BridgeClient(token: "secret", maxFrameSize: 1 << 16, exitGrace: .seconds(1), diagnostics: { nil })
    }

    @Test func theBridgesStateTouchedOffTheLoopStopsTheProcess() async {
        SessionStateOnTheLoopTests.expectStoppedOffTheLoop(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                _ = Self.makeClient().state.value.ready
            })
    }

    @Test func whatTheTestReadsIsWhatTheLoopReceived() async throws {
        let client = Self.makeClient()
        defer { client.finish(.closed) }
        let value = RawJSON(trusted: Data(#"{"title":"milk"}"#.utf8))
        let authenticated = await EventLoop.shared.submit {
            client.receive(.hello(version: BridgeProtocol.version, token: "secret", pid: 42, app: "fixture"))
            client.receive(.event(seq: 1, name: "added", value: value))
            client.receive(.record(spy: "save", index: 0, value: value))
            return client.state.value.authenticated
        }
        #expect(authenticated)
        #expect(client.appName == "fixture" && client.appPID == 42)
        #expect(client.receivedEvents == [BridgeEvent(seq: 1, name: "added", value: value)])
        #expect(client.recordCount(spy: "save") == 1 && client.recordedValues(spy: "save") == [value])
        // The waits, admitted on the loop, find the same.
        #expect(try await client.nextEvents(1, named: "added", timeout: mustSucceedTimeout) == client.receivedEvents)
        #expect(try await client.waitForRecord(spy: "save", index: 0, timeout: mustSucceedTimeout) == value)
    }
}
