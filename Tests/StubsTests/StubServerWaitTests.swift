import Foundation
import HarnessSystem
@testable import Stubs
import Testing
import TestSupport

/// `waitForRequest` waits in the package's one `WaiterTable`: resumed by the request, by its
/// timeout (with the one timeout payload), by the server's stop or by the task's cancellation.
@Suite struct StubServerWaitTests {
    /// Sends `count` pipelined requests `GET /r1` ... `GET /rN` and waits until the last is journaled.
    static func journal(_ count: Int, on server: StubServer) async throws -> RawClient? {
        guard count > 0 else { return nil }
        let client = try RawClient(server)
        try client.send((1...count).map { "GET /r\($0) HTTP/1.1\r\n\r\n" }.joined())
        _ = try await server.waitForRequest(matching: .get("/r\(count)"), timeout: mustSucceedTimeout)
        return client
    }

    @Test(arguments: [
        (0, "no request journaled"),
        (1, "#1 GET /r1 (stub any)"),
        (7, "… 2 more, #3 GET /r3 (stub any), #4 GET /r4 (stub any), #5 GET /r5 (stub any), #6 GET /r6 (stub any), #7 GET /r7 (stub any)"),
    ])
    func aTimeoutCarriesWhatWasAwaitedAndTheLastRequests(journaled: Int, lastSeen: String) async throws {
        try await StubServer.with { server in
            server.stub(.any, .text("ok"), id: "any")
            let client = try await Self.journal(journaled, on: server)
            defer { client?.close() }
            do {
                _ = try await examiningFailures { try await server.waitForRequest(matching: .get("/todos"), timeout: .milliseconds(50)) }
                Issue.record("the wait should time out")
            } catch let error as any WaitTimeoutCarrying {
                #expect(error is WaitTimeoutError)
                let timeout = try #require(error.waitTimeout)
                #expect(timeout.awaited == "a request matching GET /todos")
                #expect(timeout.timeout == .milliseconds(50))
                #expect(timeout.lastSeen == lastSeen)
                #expect("\(error)".contains("no request arrived within 0.05 seconds"))
            }
        }
    }

    /// Starts waiting for `GET /never` in a task of its own and returns once the wait is
    /// pending (in the table, its request not journaled).
    static func pendingWait(on server: StubServer) async -> Task<RecordedRequest, any Error> {
        let (inserted, signal) = AsyncStream<Void>.makeStream()
        let task = Task {
            try await server.core.waitForRequest(matching: .get("/never"), timeout: mustSucceedTimeout) {
                signal.yield()
            }
        }
        for await _ in inserted { break }
        return task
    }

    @Test func aWaitPendingWhenTheServerStopsFailsWithoutATimeoutPayload() async throws {
        let server = try StubServer()
        server.stub(.any, .text("ok"), id: "any")
        let client = try await Self.journal(1, on: server)
        defer { client?.close() }
        let waiting = await Self.pendingWait(on: server)
        server.stop()
        do {
            _ = try await waiting.value
            Issue.record("the wait should fail")
        } catch let error as WaitTimeoutError {
            #expect(error.serverStopped)
            #expect(error.waitTimeout == nil, "the server stopped: not a timeout")
            #expect(error.received.map(\.path) == ["/r1"])
            #expect(error.description.contains("the server stopped"))
        }
    }

    @Test func aWaitAfterTheServerStoppedFailsAtOnce() async throws {
        let server = try StubServer()
        server.stop()
        await #expect(throws: WaitTimeoutError.self) {
            try await examiningFailures { try await server.waitForRequest(matching: .get("/never"), timeout: mustSucceedTimeout) }
        }
    }

    @Test func cancellingTheTaskEndsAPendingWait() async throws {
        try await StubServer.with { server in
            let waiting = await Self.pendingWait(on: server)
            waiting.cancel()
            await #expect(throws: CancellationError.self) { try await waiting.value }
        }
    }

    @Test func aWaitCancelledBeforeItStartsEndsAtOnce() async throws {
        try await StubServer.with { server in
            let waiting = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await server.waitForRequest(matching: .get("/never"), timeout: mustSucceedTimeout)
            }
            await #expect(throws: CancellationError.self) { try await waiting.value }
        }
    }

    @Test func aRequestResumesEveryWaitItMatchesAndNoOther() async throws {
        try await StubServer.with { server in
            server.stub(.any, .text("ok"))
            async let first = server.waitForRequest(matching: .get("/a"), timeout: mustSucceedTimeout)
            async let second = server.waitForRequest(matching: .get(.prefix("/a")), timeout: mustSucceedTimeout)
            async let other = server.waitForRequest(matching: .get("/b"), timeout: mustSucceedTimeout)
            let client = try RawClient(server)
            defer { client.close() }
            try client.send("GET /a HTTP/1.1\r\n\r\n")
            #expect(try await first.sequenceNumber == 1)
            #expect(try await second.sequenceNumber == 1)
            try client.send("GET /b HTTP/1.1\r\n\r\n")
            #expect(try await other.sequenceNumber == 2)
        }
    }
}
