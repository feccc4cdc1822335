import Foundation
import Harness
import Stubs
import Testing
import TodoCore

/// The seed articles' cases, black box: a real `todo` process on a pseudo-terminal, its
/// network stubbed, its storage sandboxed, its spies read over the bridge.
@Suite(.tags(.acceptance))
struct TodoAcceptanceTests {
    // MARK: 1. Idle

    @Test func idleShowsTheStartButton() async throws {
        try await TerminalApp.with(TodoFixture.launch()) { app in
            try await app.run(AppStep.expect(.text("[ Start ]"), .snapshot("idle")))
            #expect(try await app.saves().count == 0)
        }
    }

    // MARK: 2. Loading

    @Test func loadingShowsLoadingAndSavesNothing() async throws {
        let server = try StubServer()
        defer { server.stop() }
        server.stub(.get("/todos"), .hang)
        try await TerminalApp.with(TodoFixture.launch(network: server)) { app in
            try await app.run(
                AppStep.expect(.text("[ Start ]")),
                AppStep(.press(.enter), expect: .text("Loading…"), .snapshot("loading"))
            )
            _ = try await server.waitForRequest(matching: .get("/todos"))
            #expect(try await app.saves().count == 0)
            #expect(try app.savedTodos() == nil)
        }
    }

    // MARK: 3. Error

    enum Failure: String, CaseIterable, Sendable {
        case serverError, connectionRefused, connectionClosed, invalidJSON, clientTimeout
    }

    @Test(arguments: Failure.allCases)
    func failuresShowOopsWithTheReasonAndSaveNothing(_ failure: Failure) async throws {
        let server = try StubServer()
        defer { server.stop() }
        var launch = try TodoFixture.launch(network: server)
        let reason: String
        switch failure {
        case .serverError:
            server.stub(.get("/todos"), .text("boom", status: 500))
            reason = "The server answered 500 Internal Server Error."
        case .connectionRefused:
            launch.network = try TodoFixture.refusedURL()
            reason = "Network error: could not connect to the server."
        case .connectionClosed:
            server.stub(.get("/todos"), .closeConnection)
            reason = "Network error:"
        case .invalidJSON:
            server.stub(.get("/todos"), .json(text: #"[{"id": 1, "title": "#))
            reason = "The server's answer is not a todo list"
        case .clientTimeout:
            server.stub(.get("/todos"), .hang)
            launch.values["api.timeout"] = "1"
            reason = "The server did not answer in time."
        }
        try await TerminalApp.with(launch) { app in
            try await app.run(
                AppStep(.press(.enter), expect: .text("Oops"), .text(reason), .text("[ Try again ]"))
            )
            #expect(try await app.saves().count == 0)
            #expect(try app.savedTodos() == nil)
        }
    }

    // MARK: 4. Loaded

    @Test func loadedShowsTheSortedListAndSavesExactlyIt() async throws {
        let server = try StubServer()
        defer { server.stop() }
        try server.stub(.get("/todos"), .json(TodoFixture.unsorted))
        try await TerminalApp.with(TodoFixture.launch(network: server)) { app in
            try await app.run(
                AppStep(.press(.enter), expect: .text("Todos (7)"), .spyCount("database.save", 1), .snapshot("loaded"))
            )
            let rows = app.session.screen.lines[1 ... TodoFixture.sorted.count]
            let titles = TodoFixture.sorted.map(\.title)
            for (row, title) in zip(rows, titles) { #expect(row.hasSuffix(title), "\(row)") }
            #expect(try app.savedTodos() == TodoFixture.sorted)
            #expect(try await app.saves().calls == [TodoFixture.sorted])
            try server.verify(.get("/todos"), count: .exactly(1))
        }
    }

    // MARK: 5. Try again

    @Test func tryAgainAfterA500LoadsTheList() async throws {
        let server = try StubServer()
        defer { server.stop() }
        server.stub(.get("/todos"), .sequence([.status(500), try .json(TodoFixture.unsorted)]))
        try await TerminalApp.with(TodoFixture.launch(network: server)) { app in
            try await app.run(
                AppStep(.press(.enter), expect: .text("Oops"), .text("[ Try again ]")),
                AppStep(.press(.enter), expect: .text("Todos (7)"), .spyCount("database.save", 1))
            )
            try server.verify(.get("/todos"), count: .exactly(2))
            #expect(try app.savedTodos() == TodoFixture.sorted)
        }
    }

    // MARK: 6. The stream of states

    @Test func statesGoIdleLoadingLoaded() async throws {
        let server = try StubServer()
        defer { server.stop() }
        try server.stub(.get("/todos"), .json(TodoFixture.unsorted))
        try await TerminalApp.with(TodoFixture.launch(network: server)) { app in
            try await app.run(
                AppStep.expect(.events("state", [#""idle""#])),
                AppStep(.press(.enter), expect: .events("state", [#""loading""#, #""loaded""#]))
            )
            #expect(try await app.bridge.probe("state", as: TodoListState.self).status == .loaded(TodoFixture.sorted))
        }
    }

    @Test func statesGoIdleLoadingError() async throws {
        let server = try StubServer()
        defer { server.stop() }
        server.stub(.get("/todos"), .status(503))
        try await TerminalApp.with(TodoFixture.launch(network: server)) { app in
            try app.session.press(.enter)
            let events = try await app.bridge.nextEvents(3, named: "state")
            #expect(try events.map { try $0.decode(as: String.self) } == ["idle", "loading", "error"])
        }
    }

    // MARK: 7. Scrolling, resizing, leaving

    @Test func scrollsTwoHundredTodosToTheEndAndBack() async throws {
        let server = try StubServer()
        defer { server.stop() }
        try server.stub(.get("/todos"), .json(TodoFixture.twoHundred))
        try await TerminalApp.with(TodoFixture.launch(network: server)) { app in
            try await app.run(
                AppStep(.press(.enter), expect: .text("Todos (200)"), .text("1/200"), .text("todo 001")),
                AppStep(.press(.end), expect: .text("200/200"), .text("todo 200"), .noText("todo 001")),
                AppStep(.press(.pageUp), expect: .text("178/200")),
                AppStep(.press([.up, .character("k")]), expect: .text("176/200")),
                AppStep(.press([.down, .character("j")]), expect: .text("178/200")),
                AppStep(.press(.home), expect: .text("1/200"), .text("todo 001"), .noText("todo 200")),
                AppStep(.press(.pageDown), expect: .text("23/200"))
            )
        }
    }

    @Test func resizingWhileLoadedRedrawsAtTheNewSize() async throws {
        let server = try StubServer()
        defer { server.stop() }
        try server.stub(.get("/todos"), .json(TodoFixture.twoHundred))
        try await TerminalApp.with(TodoFixture.launch(network: server)) { app in
            try await app.run(
                AppStep(.press(.enter), expect: .text("Todos (200)")),
                AppStep(.press(.end), expect: .text("200/200")),
                AppStep(.resize(cols: 40, rows: 12), expect: .screen("a 40x12 frame ending on todo 200") { screen in
                    screen.cols == 40 && screen.lines[0].hasSuffix("200/200") && screen.lines[10].contains("todo 200")
                }, .snapshot("resized-40x12")),
                AppStep(.resize(cols: 132, rows: 43), expect: .screen("a 132x43 frame") { screen in
                    screen.cols == 132 && screen.lines[41].contains("todo 200")
                })
            )
        }
    }

    @Test func quittingRestoresTheTerminal() async throws {
        try await TerminalApp.with(TodoFixture.launch()) { app in
            try await app.run(
                AppStep.expect(.text("[ Start ]"), .screen("the alternate screen, cursor hidden") {
                    $0.activeBuffer == .alternate && !$0.cursor.visible
                }),
                AppStep(.press(.character("q")), expect: .exit(.exited(0)))
            )
            let screen = app.session.screen
            #expect(screen.activeBuffer == .main)
            #expect(screen.cursor.visible)
        }
    }

    /// Exiting with a request in flight on FoundationNetworking's threads once crashed the app
    /// now and then (exit handlers racing those threads): repeated to give the race its chances.
    @Test(arguments: 1 ... 8)
    func quittingWhileARequestIsInFlightExitsCleanly(attempt: Int) async throws {
        let server = try StubServer()
        defer { server.stop() }
        server.stub(.get("/todos"), .hang)
        try await TerminalApp.with(TodoFixture.launch(network: server)) { app in
            try await app.run(
                AppStep(.press(.enter), expect: .text("Loading…")),
                AppStep(.press(.character("q")), expect: .exit(.exited(0)))
            )
            #expect(app.session.screen.activeBuffer == .main)
        }
    }

    @Test func controlCRestoresTheTerminal() async throws {
        try await TerminalApp.with(TodoFixture.launch()) { app in
            try await app.run(
                AppStep.expect(.text("[ Start ]")),
                AppStep(.press(.ctrl("c")), expect: .exit(.exited(130)))
            )
            #expect(app.session.screen.activeBuffer == .main)
            #expect(app.session.screen.cursor.visible)
        }
    }

    @Test func sigtermRestoresTheTerminal() async throws {
        try await TerminalApp.with(TodoFixture.launch()) { app in
            _ = try await app.session.waitFor(text: "[ Start ]")
            kill(app.session.pid, SIGTERM)
            #expect(try await app.session.waitForExit() == .signaled(SIGTERM))
            #expect(app.session.screen.activeBuffer == .main)
            #expect(app.session.screen.cursor.visible)
        }
    }

    // MARK: 8. Starting on any screen

    @Test func givenStartsDirectlyOnTheErrorScreen() async throws {
        try await TerminalApp.with(TodoFixture.launch()) { app in
            try await app.run(
                AppStep(.call("given", json: #"{"status": "error", "reason": "The disk is on fire."}"#),
                        expect: .text("Oops"), .text("The disk is on fire."), .snapshot("given-error"))
            )
        }
    }

    @Test func aLaunchInitialStateStartsOnThatScreen() async throws {
        var launch = try TodoFixture.launch()
        launch.initialState = "loaded"
        try await TerminalApp.with(launch) { app in
            try await app.run(AppStep.expect(.text("Todos (6)"), .events("state", [#""loaded""#])))
        }
    }

    static let matrix = SnapshotMatrix(samples: [
        .init("Idle", initialState: "idle", readyText: "[ Start ]"),
        .init("Loading", initialState: "loading", readyText: "Loading…"),
        .init("Error", given: #""error""#, readyText: "[ Try again ]"),
        .init("Loaded", initialState: "loaded", readyText: "Todos (6)"),
        .init("Empty", given: #"{"status": "loaded", "todos": []}"#, readyText: "Nothing to do."),
    ])

    @Test(arguments: matrix.cases)
    func sampleStates(_ sample: SnapshotMatrix.Case) async throws {
        try await sample.assertSnapshot(launching: TodoFixture.launch())
    }
}
