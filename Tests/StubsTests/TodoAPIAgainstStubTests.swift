// TodoCore's HTTP client against the stub server: every way the network can answer.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubs
import Testing
import TodoCore

/// Every test runs through both HTTP stacks: the app's own client (what the app uses for
/// `http://` on Linux) and URLSession (what it uses for `https://`).
@Suite struct TodoAPIAgainstStubTests {
    /// 200 todos as the server sends them.
    static let todosJSON = "[" + (1...200).map { #"{"userId": 1, "id": \#($0), "title": "Todo \#($0)", "completed": \#($0 % 2 == 0)}"# }
        .joined(separator: ",") + "]"

    private func api(_ server: StubServer, _ transport: TodoAPI.Transport, timeout: TimeInterval = 10) -> TodoAPI {
        TodoAPI(baseURL: server.baseURL, timeout: timeout, transport: transport)
    }

    static let transports: [TodoAPI.Transport] = [.plainHTTP, .urlSession]

    @Test(arguments: transports) func success(transport: TodoAPI.Transport) async throws {
        try await StubServer.with { server in
            server.stub(.get("/todos"), .json(text: Self.todosJSON))
            let todos = try await api(server, transport).fetchTodos()
            #expect(todos.count == 200)
            #expect(todos.first?.title == "Todo 1")
            try server.verify(.get("/todos"), count: .once)
        }
    }

    @Test(arguments: transports, [500, 404, 503])
    func badStatus(transport: TodoAPI.Transport, status: Int) async throws {
        try await StubServer.with { server in
            server.stub(.get("/todos"), .text("nope", status: status))
            do {
                _ = try await api(server, transport).fetchTodos()
                Issue.record("status \(status) must fail")
            } catch let error as TodoAPIError {
                guard case .badStatus(let code) = error else {
                    Issue.record("expected .badStatus(\(status)), got \(error)")
                    return
                }
                #expect(code == status)
            }
        }
    }

    @Test(arguments: transports) func unstubbedPathIs404(transport: TodoAPI.Transport) async throws {
        try await StubServer.with { server in
            do {
                _ = try await api(server, transport).fetchTodos()
                Issue.record("must fail")
            } catch let error as TodoAPIError {
                guard case .badStatus(404) = error else {
                    Issue.record("expected .badStatus(404), got \(error)")
                    return
                }
            }
        }
    }

    @Test(arguments: transports) func hangPlusClientTimeoutIsTimedOut(transport: TodoAPI.Transport) async throws {
        try await StubServer.with { server in
            server.stub(.get("/todos"), .hang)
            // FoundationNetworking rounds timeouts down to whole seconds: 1 s is the shortest.
            do {
                _ = try await api(server, transport, timeout: 1).fetchTodos()
                Issue.record("a hang must time out")
            } catch let error as TodoAPIError {
                guard case .timedOut = error else {
                    Issue.record("expected .timedOut, got \(error)")
                    return
                }
            }
            #expect(server.requests(matching: .get("/todos")).count == 1)
        }
    }

    @Test(arguments: transports, [StubBehaviour.closeConnection, .reset, .garbage])
    func brokenConnectionsAreTransportErrors(transport: TodoAPI.Transport, behaviour: StubBehaviour) async throws {
        try await StubServer.with { server in
            server.stub(.get("/todos"), behaviour)
            do {
                _ = try await api(server, transport).fetchTodos()
                Issue.record("\(behaviour) must fail")
            } catch let error as TodoAPIError {
                guard case .transport = error else {
                    Issue.record("expected .transport, got \(error) for \(behaviour)")
                    return
                }
            }
        }
    }

    @Test(arguments: transports, ["not json", "{\"todos\": 1}", "[{\"id\": \"x\"}]", ""])
    func invalidJSONIsUndecodable(transport: TodoAPI.Transport, body: String) async throws {
        try await StubServer.with { server in
            server.stub(.get("/todos"), .json(text: body))
            do {
                _ = try await api(server, transport).fetchTodos()
                Issue.record("\(body) must fail")
            } catch let error as TodoAPIError {
                guard case .undecodable = error else {
                    Issue.record("expected .undecodable, got \(error)")
                    return
                }
            }
        }
    }

    @Test(arguments: transports) func retryFlowFailsOnceThenSucceeds(transport: TodoAPI.Transport) async throws {
        try await StubServer.with { server in
            server.stub(.get("/todos"), .sequence([.status(500), .json(text: Self.todosJSON)]))
            let api = api(server, transport)
            await #expect(throws: TodoAPIError.self) { _ = try await api.fetchTodos() }
            let todos = try await api.fetchTodos()
            #expect(todos.count == 200)
            try server.verify(.get("/todos"), count: .exactly(2))
        }
    }
}
