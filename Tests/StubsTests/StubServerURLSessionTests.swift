import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
@testable import Stubs

/// The in-process server driven by URLSession, the client the sample app uses.
@Suite struct StubServerURLSessionTests {
    @Test func servesJSONWithHeaders() async throws {
        try await StubServer.with { server in
            let todos = TodoFixture.list(3)
            try server.stub(.get("/todos"), .json(todos).withHeader("X-Stub", "yes"))
            let (data, response) = try await fetch(server.url("/todos"))
            #expect(response.statusCode == 200)
            #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json")
            #expect(response.value(forHTTPHeaderField: "X-Stub") == "yes")
            #expect(try JSONDecoder().decode([TodoFixture].self, from: data) == todos)
            #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)")
        }
    }

    @Test func unmatchedRequestGets404WithNearMissReport() async throws {
        try await StubServer.with { server in
            server.stub(.get("/todos"), .text("ok"), id: "todos")
            server.stub(.post("/todos").withHeader("X-Token", "secret"), .status(201), id: "create")
            let (data, response) = try await fetch(server.url("/todo?page=1"))
            #expect(response.statusCode == 404)
            let text = String(decoding: data, as: UTF8.self)
            #expect(text.contains("No stub matched this request."))
            #expect(text.contains("1. stub todos: GET /todos"))
            #expect(text.contains(#"✗ path: expected exactly "/todos", was "/todo""#))
            #expect(text.contains("✗ method: expected POST, was GET"))
            #expect(server.unmatchedRequests.map(\.target) == ["/todo?page=1"])
        }
    }

    @Test func latestStubWinsUnlessPrioritySaysOtherwise() async throws {
        try await StubServer.with { server in
            server.stub(.get("/x"), .text("first"))
            server.stub(.get("/x"), .text("second"))
            let body1 = try await text(server.url("/x"))
            #expect(body1 == "second")
            server.stub(.get("/x"), .text("important"), priority: 1)
            server.stub(.get("/x"), .text("latest but unimportant"), priority: 10)
            let body2 = try await text(server.url("/x"))
            #expect(body2 == "important")
        }
    }

    @Test func limitedUsesAndRemoval() async throws {
        try await StubServer.with { server in
            server.stub(.get("/x"), .text("fallback"))
            let once = server.stub(.get("/x"), .text("once"), uses: 1)
            let body3 = try await text(server.url("/x"))
            #expect(body3 == "once")
            let body4 = try await text(server.url("/x"))
            #expect(body4 == "fallback")
            #expect(server.remove(once))
            #expect(!server.remove(once))
            server.reset()
            #expect(server.stubs.isEmpty)
            #expect(server.requests.isEmpty)
            let status = try await fetch(server.url("/x")).1.statusCode
            #expect(status == 404)
        }
    }

    @Test func sequenceFailsThenSucceedsThenRepeatsTheLast() async throws {
        try await StubServer.with { server in
            server.stub(.get("/todos"), .sequence([.status(500), .text("ok")]))
            var statuses: [Int] = []
            for _ in 0..<3 { statuses.append(try await fetch(server.url("/todos")).1.statusCode) }
            #expect(statuses == [500, 200, 200])
        }
    }

    @Test func matchesQueryHeadersAndJSONBody() async throws {
        try await StubServer.with { server in
            server.stub(
                .post("/todos").withQuery("list", "home").withHeader("Content-Type", .contains("json"))
                    .withBody(.jsonEqual(#"{"title": "Milk", "done": false}"#)),
                .status(201)
            )
            let body = Data(#"{"done":false,"title":"Milk"}"#.utf8)
            let created = try await fetch(server.url("/todos?list=home"), method: "POST", body: body, headers: ["Content-Type": "application/json"])
            #expect(created.1.statusCode == 201)
            let wrong = try await fetch(server.url("/todos?list=work"), method: "POST", body: body, headers: ["Content-Type": "application/json"])
            #expect(wrong.1.statusCode == 404)
            #expect(String(decoding: wrong.0, as: UTF8.self).contains(#"✗ query list: expected = "home", was "work""#))
            let recorded = try #require(server.requests.first)
            #expect(recorded.method == "POST")
            #expect(recorded.queryValue("list") == "home")
            #expect(recorded.headers["content-type"] == "application/json")
            #expect(recorded.bodyText == #"{"done":false,"title":"Milk"}"#)
            #expect(recorded.stubID != nil)
        }
    }

    @Test func fileBodiesChunkedBodiesAndThrottledBodies() async throws {
        try await withTemporaryDirectory { directory in
            try await StubServer.with { server in
                let file = directory.appendingPathComponent("todos.json")
                try Data(#"[{"id":1}]"#.utf8).write(to: file)
                server.stub(.get("/file"), .file(file))
                server.stub(.get("/missing"), .file(directory.appendingPathComponent("nope.json")))
                let big = String(repeating: "0123456789", count: 1000)
                server.stub(.get("/chunked"), StubResponse.text(big).chunked(chunkSize: 333))
                server.stub(.get("/slow"), StubResponse.text("slow body").throttled(bytes: 16, every: .milliseconds(2)))
                let fileResponse = try await fetch(server.url("/file"))
                #expect(String(decoding: fileResponse.0, as: UTF8.self) == #"[{"id":1}]"#)
                #expect(fileResponse.1.value(forHTTPHeaderField: "Content-Type") == "application/json")
                let missing = try await fetch(server.url("/missing"))
                #expect(missing.1.statusCode == 500)
                #expect(String(decoding: missing.0, as: UTF8.self).contains("nope.json cannot be read"))
                let body5 = try await text(server.url("/chunked"))
                #expect(body5 == big)
                let body6 = try await text(server.url("/slow"))
                #expect(body6 == "slow body")
            }
        }
    }

    @Test func delayHappensBeforeTheResponse() async throws {
        try await StubServer.with { server in
            server.stub(.get("/late"), StubResponse.text("late").delayed(by: .milliseconds(200)))
            let clock = ContinuousClock()
            let start = clock.now
            let (data, _) = try await fetch(server.url("/late"))
            #expect(String(decoding: data, as: UTF8.self) == "late")
            #expect(clock.now - start >= .milliseconds(200))
        }
    }

    @Test func hangKeepsTheClientWaitingUntilItsTimeout() async throws {
        try await StubServer.with { server in
            server.stub(.get("/todos"), .hang)
            do {
                // FoundationNetworking rounds timeouts down to whole seconds.
                _ = try await fetch(server.url("/todos"), timeout: 1)
                Issue.record("a hanging stub must not answer")
            } catch let error as URLError {
                #expect(error.code == .timedOut)
            }
            #expect(server.requests.count == 1)
        }
    }

    @Test func removingAHangingStubAnswersTheWaitingRequest() async throws {
        try await StubServer.with { server in
            server.stub(.get("/todos"), .text("loaded"))
            let hang = server.stub(.get("/todos"), .hang)
            // The client must not give up by itself while the stub holds the request: under
            // load this test's task may resume seconds after the request arrived (it queues
            // behind every other test's on the cooperative pool's two threads), and a 10 s
            // client timeout then closed the connection before the stub was removed.
            let request = RequestOnOwnThread(server.url("/todos"), timeout: 600)
            let seen = try await server.waitForRequest(matching: .get("/todos"), timeout: mustSucceedTimeout)
            #expect(seen.stubID == hang)
            #expect(server.openConnectionCount >= 1)
            server.remove(hang)
            let (data, response) = try await request.value
            #expect(response.statusCode == 200)
            #expect(String(decoding: data, as: UTF8.self) == "loaded")
            #expect(server.requests.count == 1, "the released request is not journaled twice")
        }
    }

    @Test func stopClosesHangingConnectionsAndFreesThePort() async throws {
        // A port below the kernel's ephemeral range (32768 and up here): the parallel tests'
        // own client connections take their local ports from that range, so none of them can
        // hold this one when it is bound again below.
        let server = try Self.serverBelowTheEphemeralPorts()
        server.stub(.any, .hang)
        let request = RequestOnOwnThread(server.url("/todos"))
        _ = try await server.waitForRequest(timeout: mustSucceedTimeout)
        server.stop()
        server.stop()  // Idempotent.
        await #expect(throws: (any Error).self) { _ = try await request.value }
        #expect(server.openConnectionCount == 0)
        // The port can be bound again at once.
        let again = try StubServer(port: server.port)
        #expect(again.port == server.port)
        again.stop()
    }

    /// A stub server on a free port between 20000 and 29999.
    static func serverBelowTheEphemeralPorts() throws -> StubServer {
        var lastError: (any Error)?
        for port in (20000..<30000).shuffled().prefix(50) {
            do { return try StubServer(port: UInt16(port)) } catch { lastError = error }
        }
        throw lastError!
    }

    @Test(arguments: [StubBehaviour.closeConnection, .reset, .garbage])
    func faultsMakeTheClientFail(behaviour: StubBehaviour) async throws {
        try await StubServer.with { server in
            server.stub(.get("/todos"), behaviour)
            await #expect(throws: (any Error).self) {
                let (_, response) = try await fetch(server.url("/todos"))
                Issue.record("unexpected response \(response.statusCode) for \(behaviour)")
            }
            #expect(server.requests.count >= 1)
        }
    }

    @Test func headGetsHeadersWithoutBody() async throws {
        try await StubServer.with { server in
            server.stub(.head("/todos"), .text("twelve bytes"))
            let (data, response) = try await fetch(server.url("/todos"), method: "HEAD")
            #expect(response.statusCode == 200)
            #expect(data.isEmpty)
            #expect(response.value(forHTTPHeaderField: "Content-Length") == "12")
        }
    }

    @Test func verifyCountsAndExplainsFailures() async throws {
        try await StubServer.with { server in
            server.stub(.get("/todos"), .text("ok"))
            _ = try await fetch(server.url("/todos"))
            _ = try await fetch(server.url("/todos"))
            _ = try await fetch(server.url("/todo"))
            try server.verify(.get("/todos"), count: .exactly(2))
            try server.verify(.get("/todos"), count: .atLeast(1))
            try server.verify(.get("/todos"), count: .atMost(2))
            try server.verify(.post("/todos"), count: .never)
            let error = try #require(server.verificationFailure(.get("/todos"), count: .exactly(3)))
            #expect(error.description.contains("Expected exactly 3 request(s) matching GET /todos, but 2 matched."))
            #expect(error.description.contains("Received 3 request(s):"))
            // The answering stub by its route, not by its generated id.
            #expect(error.description.contains("✓ #1 GET /todos (stub GET /todos)"), "\(error)")
            #expect(error.description.contains(#"✗ path: expected exactly "/todos", was "/todo""#))
            #expect(throws: StubVerificationError.self) { try server.verify(.get("/todos"), count: .once) }
            #expect(server.requests(matching: .get("/todo")).count == 1)
        }
    }

    @Test func waitForRequestResumesWhenTheRequestArrives() async throws {
        try await StubServer.with { server in
            server.stub(.any, .text("ok"))
            async let waited = server.waitForRequest(matching: .post("/events"), timeout: mustSucceedTimeout)
            // Make sure the waiter is registered before the request is sent: unrelated requests first.
            _ = try await fetch(server.url("/other"))
            _ = try await fetch(server.url("/events"), method: "POST", body: Data("x".utf8))
            let request = try await waited
            #expect(request.path == "/events")
            #expect(request.bodyText == "x")
        }
    }

    @Test func waitForRequestTimesOutWithWhatWasReceived() async throws {
        try await StubServer.with { server in
            server.stub(.any, .text("ok"))
            _ = try await fetch(server.url("/todo"))
            do {
                _ = try await examiningFailures { try await server.waitForRequest(matching: .get("/todos"), timeout: .milliseconds(100)) }
                Issue.record("the wait should time out")
            } catch let error as WaitTimeoutError {
                #expect(error.description.contains("no request arrived within"))
                #expect(error.description.contains("#1 GET /todo"))
            }
        }
    }

    @Test func waitForRequestFailsOnceTheServerStopped() async throws {
        let server = try StubServer()
        server.stop()
        do {
            _ = try await examiningFailures { try await server.waitForRequest(matching: .get("/never"), timeout: .seconds(30)) }
            Issue.record("the wait should fail")
        } catch let error as WaitTimeoutError {
            #expect(error.serverStopped)
            #expect(error.description.contains("the server stopped"))
        }
    }

    @Test func servesOnIPv6Loopback() async throws {
        try await StubServer.with(host: .loopbackIPv6) { server in
            server.stub(.get("/v6"), .text("six"))
            #expect(server.baseURL.absoluteString == "http://[::1]:\(server.port)")
            let output = try await curl([server.url("/v6").absoluteString])
            #expect(output.stdout == "six")
        }
    }

    @Test func isSafeToUseFromManyTasks() async throws {
        try await StubServer.with { server in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        let id = server.stub(.get("/task/\(index)"), .text("\(index)"))
                        let body = try await text(server.url("/task/\(index)"))
                        #expect(body == "\(index)")
                        server.remove(id)
                    }
                }
                try await group.waitForAll()
            }
            #expect(server.requests.count == 20)
        }
    }

    @Test func invalidHostIsATypedError() {
        #expect(throws: StubServerError.self) { _ = try StubHost("not an address") }
        let first = try? StubServer()
        #expect(throws: StubServerError.self) { _ = try StubServer(host: StubHost("127.0.0.1"), port: first?.port ?? 1) }
        first?.stop()
    }
}
