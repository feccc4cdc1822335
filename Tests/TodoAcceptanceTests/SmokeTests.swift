import Foundation
import Harness
import Stubs
import Testing
import TodoCore

@Suite struct SmokeTests {
    @Test func loadsThroughTheHarness() async throws {
        let server = try StubServer()
        defer { server.stop() }
        try server.stub(.get("/todos"), .json(TodoListState.sampleTodos))
        var launch = AppLaunch(executable: try BuildProducts.executable(named: "todo").path)
        launch.network = server.baseURL
        try await TerminalApp.with(launch) { app in
            try await app.session.waitFor(text: "[ Start ]")
            try app.session.press(.enter)
            try await app.session.waitFor(text: "Todos (6)")
            let bridge = try app.requireBridge()
            let saved = try await bridge.spy("database.save", as: [Todo].self).waitForCall(number: 1)
            #expect(saved.count == 6)
            #expect(app.sandbox.exists("todos.json"))
            let events = bridge.receivedEvents.filter { $0.name == "state" }.map(\.value.text)
            #expect(events == ["\"idle\"", "\"loading\"", "\"loaded\""])
        }
    }
}
