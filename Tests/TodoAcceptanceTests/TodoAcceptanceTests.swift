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
        // The app waits for the test, not for its own 10 s request timeout: on a loaded machine
        // the screen could otherwise already show "Oops" when the test reads it.
        try await TerminalApp.with(TodoFixture.launch(network: server, values: TodoFixture.neverTimesOut)) { app in
            try await app.run(
                AppStep.expect(.text("[ Start ]")),
                AppStep(.press(.enter), expect: .text("Loading…"), .snapshot("loading"))
            )
            _ = try await server.waitForRequest(matching: .get("/todos"), timeout: TodoFixture.waitLimit)
            #expect(try await app.saves().count == 0)
            #expect(try app.savedTodos() == nil)
        }
    }

    // MARK: 3. Error

    enum Failure: String, CaseIterable, Sendable {
        case serverError, notFound, connectionRefused, connectionClosed, invalidJSON, clientTimeout
    }

    @Test(arguments: Failure.allCases)
    func failuresShowOopsWithTheReasonAndSaveNothing(_ failure: Failure) async throws {
        let server = try StubServer()
        defer { server.stop() }
        var launch = try TodoFixture.launch(network: server)
        let refusing = try TodoFixture.refusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let reason: String
        switch failure {
        case .serverError:
            server.stub(.get("/todos"), .text("boom", status: 500))
            reason = "The server answered 500 Internal Server Error."
        case .notFound:
            server.stub(.get("/todos"), .text("no such list", status: 404))
            reason = "The server answered 404 Not Found."
        case .connectionRefused:
            launch.network = refusing.url
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
            // One request per Start: no silent retry before the error is shown.
            try server.verify(.get("/todos"), count: .exactly(failure == .connectionRefused ? 0 : 1))
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
            #expect(Array(app.session.screen.lines[1 ... 7]) == TodoFixture.sortedRows)
            #expect(app.session.screen.lines[8].isEmpty)
            #expect(try app.savedText() == TodoFixture.savedJSON)
            #expect(try app.savedTodos() == TodoFixture.sorted)
            #expect(try await app.saves().calls == [TodoFixture.sorted])
            try server.verify(.get("/todos"), count: .exactly(1))
        }
    }

    @Test func aSaveThatFailsIsReportedUnderTheList() async throws {
        let server = try StubServer()
        defer { server.stop() }
        try server.stub(.get("/todos"), .json(TodoFixture.unsorted))
        try await TerminalApp.with(TodoFixture.launch(network: server)) { app in
            // A folder where the file should go: the rename over it fails (EISDIR), as root too.
            try FileManager.default.createDirectory(
                atPath: app.sandbox.url.appendingPathComponent(TodoFixture.savedFileName).path,
                withIntermediateDirectories: false
            )
            try await app.run(
                AppStep(.press(.enter), expect: .text("Todos (7)"), .text("Could not save: could not save the todos"))
            )
            #expect(Array(app.session.screen.lines[1 ... 7]) == TodoFixture.sortedRows)
        }
    }

    @Test func longTitlesAreCutToTheScreenWidthWithAnEllipsis() async throws {
        let server = try StubServer()
        defer { server.stop() }
        try server.stub(.get("/todos"), .json(TodoFixture.longTitles))
        try await TerminalApp.with(TodoFixture.launch(network: server, size: TerminalSize(cols: 40, rows: 12))) { app in
            try await app.run(AppStep(.press(.enter), expect: .text("Todos (3)")))
            // 40 columns: " [ ] " and the title cut to 35 columns, the last of them "…".
            #expect(Array(app.session.screen.lines[0 ... 3]) == [
                " Todos (3) · loaded 22:13           1/3",
                " [ ] a title far too long for a forty c…",
                " [x] 買い物リストと牛乳と卵とパンとバタ…",
                " [ ] 🚀 launch the rocket to the moon a…",
            ])
        }
    }

    // MARK: 5. Try again

    /// Enter or Space starts, Enter or Space tries again (the help lines of both screens).
    @Test(arguments: [[Key.enter, Key.character(" ")], [Key.character(" "), Key.enter]])
    func tryAgainAfterA500LoadsTheList(keys: [Key]) async throws {
        let server = try StubServer()
        defer { server.stop() }
        server.stub(.get("/todos"), .sequence([.status(500), try .json(TodoFixture.unsorted)]))
        try await TerminalApp.with(TodoFixture.launch(network: server)) { app in
            try await app.run(
                AppStep.expect(.text("Enter or Space: start  ·  q: quit")),
                AppStep(.press(keys[0]), expect: .text("Oops"), .text("[ Try again ]"),
                        .text("Enter or Space: try again  ·  q: quit")),
                AppStep(.press(keys[1]), expect: .text("Todos (7)"), .spyCount("database.save", 1))
            )
            try server.verify(.get("/todos"), count: .exactly(2))
            #expect(try app.savedText() == TodoFixture.savedJSON)
        }
    }

    // MARK: 6. The stream of states

    @Test func statesGoIdleLoadingLoaded() async throws {
        let server = try StubServer()
        defer { server.stop() }
        try server.stub(.get("/todos"), .json(TodoFixture.unsorted))
        try await TerminalApp.with(TodoFixture.launch(network: server)) { app in
            try await app.run(
                AppStep.expect(.events("state", ["idle"])),
                AppStep(.press(.enter), expect: .events("state", ["idle", "loading", "loaded"]))
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
                AppStep(.press(.enter), expect: .text("Todos (200)"), .text("1/200"), .text("todo 001"),
                        .text("↑↓ j/k PgUp/PgDn Home/End scroll · q quit")),
                // Up on the first todo stays there (the second key shows the first was handled).
                AppStep(.press([.up, .down]), expect: .text("2/200")),
                AppStep(.press(.end), expect: .text("200/200"), .noText("todo 001"), .screen("todo 200 on the last list row") {
                    $0.lines[22].hasSuffix("todo 200") && $0.lines[1].hasSuffix("todo 179")
                }),
                // Down on the last todo stays there.
                AppStep(.press([.down, .up]), expect: .text("199/200")),
                AppStep(.press(.pageUp), expect: .text("177/200")),
                AppStep(.press(.up), expect: .text("176/200")),
                AppStep(.press(.character("k")), expect: .text("175/200")),
                AppStep(.press(.down), expect: .text("176/200")),
                AppStep(.press(.character("j")), expect: .text("177/200")),
                AppStep(.press(.home), expect: .text("1/200"), .text("todo 001"), .noText("todo 200")),
                AppStep(.press(.pageDown), expect: .text("23/200")),
                // Home and End as tmux, screen and the Linux console send them.
                AppStep(.type("\u{1B}[4~"), expect: .text("200/200")),
                AppStep(.type("\u{1B}[1~"), expect: .text("1/200"))
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

    /// `q: quit` is on every screen's help line.
    @Test(arguments: [("idle", "[ Start ]"), ("loading", "Loading…"), ("error", "[ Try again ]"), ("loaded", "Todos (6)")])
    func qQuitsFromEveryScreen(state: String, readyText: String) async throws {
        var launch = try TodoFixture.launch()
        launch.initialState = state
        try await TerminalApp.with(launch) { app in
            try await app.run(
                AppStep.expect(.text(readyText)),
                AppStep(.press(.character("q")), expect: .exit(.exited(0)))
            )
            #expect(app.session.screen.activeBuffer == .main)
        }
    }

    /// `NO_COLOR` (set, not empty) and `TERM=dumb` turn color off; reverse video stays.
    @Test(arguments: [["NO_COLOR": "1"], ["TERM": "dumb"]])
    func noColorWhenTheEnvironmentSaysSo(environment: [String: String]) async throws {
        var launch = try TodoFixture.launch()
        launch.initialState = "loaded"
        launch.environment.merge(environment) { _, new in new }
        launch.unsetEnvironment.subtract(environment.keys)
        try await TerminalApp.with(launch) { app in
            try await app.run(AppStep.expect(.text("Todos (6)")))
            let screen = app.session.screen
            #expect(screen.cell(row: 0, col: 1).attributes.inverse)
            for row in 0 ..< screen.rows {
                for col in 0 ..< screen.cols {
                    let attributes = screen.cell(row: row, col: col).attributes
                    #expect(attributes.foreground == .default && attributes.background == .default,
                            "row \(row) col \(col): \(attributes)")
                }
            }
        }
    }

    /// Exiting with a request in flight on FoundationNetworking's threads once crashed the app
    /// now and then (exit handlers racing those threads): repeated to give the race its chances.
    @Test(arguments: 1 ... 8)
    func quittingWhileARequestIsInFlightExitsCleanly(attempt: Int) async throws {
        let server = try StubServer()
        defer { server.stop() }
        server.stub(.get("/todos"), .hang)
        try await TerminalApp.with(TodoFixture.launch(network: server, values: TodoFixture.neverTimesOut)) { app in
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
            try await app.run(AppStep.expect(.text("Todos (6)"), .events("state", ["loaded"])))
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
