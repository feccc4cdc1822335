import Foundation
import HarnessSystem
@testable import Stubs
import Testing
import TestSupport

/// A server is served on the process's event loop; stopping it from the loop itself (a
/// handler, a timer or a job of someone else's) closes everything at once instead of waiting
/// for the loop, which would never come.
@Suite struct StubServerOnTheLoopTests {
    @Test func stopCalledOnTheLoopClosesAHangingConnectionAndFailsAPendingWait() async throws {
        let server = try StubServer()
        server.stub(.get("/hang"), .hang)
        let client = try RawClient(server)
        defer { client.close() }
        try client.send("GET /hang HTTP/1.1\r\n\r\n")
        _ = try await server.waitForRequest(matching: .get("/hang"), timeout: mustSucceedTimeout)
        let waiting = await StubServerWaitTests.pendingWait(on: server)
        let open = await EventLoop.shared.submit { () -> Int in
            server.stop()
            return server.openConnectionCount
        }
        #expect(open == 0, "stop closed the connection before it returned, on the loop")
        // Closed already: the read returns at once.
        #expect(try client.readToEnd().isEmpty, "the client sees the end of the stream")
        await #expect(throws: WaitTimeoutError.self) { try await waiting.value }
    }

    @Test func aServerReleasedOnTheLoopStopsThere() async throws {
        let box = Locked<StubServer?>(try StubServer())
        let client = try RawClient(box.withLock { $0! })
        defer { client.close() }
        try client.send("GET /idle HTTP/1.1\r\n\r\n")  // 404 with a near-miss report, then idle
        #expect(try client.readResponse().status == 404)
        // The last reference goes on the loop: deinit stops the server there.
        await EventLoop.shared.submit { box.withLock { $0 = nil } }
        #expect(try client.readToEnd().isEmpty, "the idle connection was closed (already: the read returns at once)")
    }
}
