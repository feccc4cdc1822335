import Foundation
import HarnessWire
import Testing
import TestSupport
import Harness
@testable import HarnessCore

/// The bridge keeps the newest events up to its limit: the oldest are dropped and counted, and
/// a wait whose place is among the dropped ones goes on from the oldest kept.
@Suite struct BridgeEventLimitTests {
    @Test func theOldestEventsAreDroppedAndWaitsGoOnFromTheOldestKept() async throws {
        // A tick weighs about 70 bytes (its value, its name, the entry): about 100 are kept.
        let listener = try BridgeListener(eventLimit: 7_000)
        defer { listener.close() }
        let fixture = try FixtureProcess(listener: listener)
        defer { fixture.terminate() }
        let app = try await listener.readyBridge()
        // The events are written before the call's reply: all are in when it returns.
        try await app.call("publish", 2_000)
        let kept = app.receivedEvents
        let dropped = app.droppedEvents
        #expect(kept.count < 200 && kept.count > 50, "\(kept.count) kept")
        #expect(dropped.count + kept.count == 2_001, "the state event and 2,000 ticks")
        #expect(dropped.bytes > 0)
        #expect(try kept.last?.decode(as: Int.self) == 1_999)
        // Nothing was taken yet: the first tick waited for is the oldest one kept.
        let oldest = try #require(kept.first { $0.name == "tick" })
        let next = try await app.nextEvent(named: "tick", timeout: mustSucceedTimeout)
        #expect(next == oldest)
        #expect(try next.decode(as: Int.self) > 0)
    }
}
