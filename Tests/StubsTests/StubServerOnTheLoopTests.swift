import Foundation
import HarnessSystem
@testable import Stubs
import Testing
import TestSupport

/// A server is served on the process's event loop; stopping it from the loop itself (a
/// handler, a timer or a job of someone else's) closes everything at once instead of waiting
/// for the loop, which would never come. Its state lives there: touched from a test's task it
/// stops the process; what a test reads synchronously (the journal, the stubs' matches) is
/// what the loop received.
@Suite struct StubServerOnTheLoopTests {
    @Test func theServersStateTouchedOffTheLoopStopsTheProcess() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let server = try? StubServer()
            _ = server?.core.state.value.matchCounts  // no server: exits 0, and the expectation fails
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("touched off its thread"), "\(message)")
    }

    @Test func whatTheTestReadsIsWhatTheLoopReceived() async throws {
        let server = try StubServer()
        defer { server.stop() }
        let client = try RawClient(server)
        defer { client.close() }
        server.stub(.get("/todos"), .sequence([.status(500), .status(200)]), uses: 2, id: "todos")
        for (index, status) in [500, 200, 404].enumerated() {
            try client.send("GET /todos HTTP/1.1\r\n\r\n")
            #expect(try client.readResponse().status == status)
            // Read at once, with no wait: the loop published the request before answering it.
            let matches = min(index + 1, 2)
            #expect(server.requests.map(\.sequenceNumber) == Array(1...index + 1))
            #expect(server.requests.last?.stubID == (status == 404 ? nil : "todos"))
            #expect(server.stubs.map(\.matchCount) == [matches] && server.stubs.map(\.remainingUses) == [2 - matches])
            try server.verify(.get("/todos"), count: .exactly(index + 1))
        }
        // The loop decided with the counts the test read, and its waits find the journal the test read.
        #expect(await EventLoop.shared.submit { Array(server.core.state.value.matchCounts.values) } == [2])
        #expect(try await server.waitForRequest(matching: .get("/todos"), timeout: mustSucceedTimeout) == server.requests[0])

        // Replaced under the same id: a new stub, counted from 0 on the loop and in what the test reads.
        server.stub(.get("/todos"), .sequence([.status(500), .status(200)]), uses: 2, id: "todos")
        server.clearRequests()
        try client.send("GET /todos HTTP/1.1\r\n\r\n")
        #expect(try client.readResponse().status == 500)
        #expect(server.requests.map(\.sequenceNumber) == [1])
        #expect(server.stubs.map(\.matchCount) == [1])
        #expect(await EventLoop.shared.submit { Array(server.core.state.value.matchCounts.values) } == [1])
    }

    @Test func aRequestClearedWhileItHungIsNotJournaledAgainWhenReleased() async throws {
        let server = try StubServer()
        defer { server.stop() }
        server.stub(.get("/slow"), .hang, id: "slow")
        server.stub(.get("/slow"), .text("late"), priority: 9)  // answers it once the hang is removed
        server.stub(.get("/fast"), .text("ok"))
        let hanging = try RawClient(server)
        defer { hanging.close() }
        try hanging.send("GET /slow HTTP/1.1\r\n\r\n")
        _ = try await server.waitForRequest(matching: .get("/slow"), timeout: mustSucceedTimeout)
        server.clearRequests()
        let client = try RawClient(server)
        defer { client.close() }
        try client.send("GET /fast HTTP/1.1\r\n\r\n")  // numbered 1, as the hanging one was
        #expect(try client.readResponse().status == 200)
        server.remove("slow")
        #expect(try hanging.readResponse().status == 200, "released: answered by the stub left")
        #expect(server.requests.map(\.path) == ["/fast"])
    }

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
