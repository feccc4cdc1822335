import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Harness
import Stubs
import TerminalEmulator
import TestSupport
import Testing
import TodoCore
@testable import todo

// docs/SNAPSHOTS.md's and docs/STUBS.md's ```swift examples, run for real: every one of them is
// in this file as code that compiles and runs (the todo app's own screen drawing, a real todo
// process against the stub server), with the names the docs leave out defined around it.
// `DocsExamplesTests.everyExampleIsMirroredHere` fails when a line of an example is not in this
// file, in order and verbatim (leading and trailing blanks aside).

// MARK: - docs/SNAPSHOTS.md, the first example

/// The bytes the todo app draws for its sorted list on a 40x10 terminal, in color.
private let renderedBytes = Array(
    TodoScreen(cols: 40, rows: 10, color: true, loadedAt: "22:13")
        .render(TodoListState(status: .loaded(TodoFixture.sorted), pageSize: TodoScreen.pageSize(rows: 10))).utf8)

/// A value to snapshot as JSON: the todo a client would send.
private let request = Todo(userId: 1, id: 201, title: "Buy milk", completed: false)

@Suite struct TodoScreenTests {
    @Test func loaded() {
        let terminal = Terminal(cols: 40, rows: 10)
        terminal.feed(renderedBytes)
        assertSnapshot(of: terminal.snapshot(), as: .screen(masks: [.regex(#"\d\d:\d\d"#)], style: true),
                       named: "loaded")
    }

    @Test func requestBody() {
        assertSnapshot(of: request, as: .json)
    }
}

@Suite(.tags(.acceptance))
struct DocsExamplesTests {
    // MARK: - docs/SNAPSHOTS.md, strategies and masks

    /// A strategy pulled back from the framed screen: a list of todos drawn by the app's own
    /// `TodoScreen`.
    @Test func aStrategyMadeWithPullback() {
        let todos = TodoFixture.sorted

        let todoScreen = SnapshotStrategy<ScreenSnapshot, String>.framedScreen.pullback { (todos: [Todo]) in
            let terminal = Terminal(cols: 40, rows: 12)
            terminal.feed(TodoScreen(cols: 40, rows: 12, color: false).render(TodoListState(status: .loaded(todos))))
            return terminal.snapshot()
        }
        assertSnapshot(of: todos, as: todoScreen)
    }

    /// A clock, a pid and a spinner in the corner, masked.
    @Test func masks() {
        let terminal = Terminal(cols: 80, rows: 3)
        terminal.feed("build started 12:34:56 by pid 4242\r\nall good\u{1B}[1;79H-\\")
        let screen = terminal.snapshot()

        assertSnapshot(of: screen, as: .screen(masks: [
            .regex(#"\d\d:\d\d:\d\d"#),                                     // a clock, anywhere
            .regex(#"pid \d+"#, fill: "#"),
            .region(ScreenRegion(row: 0, col: 78, width: 2, height: 1)),     // the spinner's corner
        ]))
    }

    // MARK: - docs/STUBS.md, in process

    let todos = TodoFixture.unsorted

    /// The in-process example with the todo app as the client: the hang keeps it on
    /// "Loading…"; removing it answers the waiting request from the sequence (500: "Oops"),
    /// and Try again gets the sequence's list. The POST stub is called with URLSession.
    @Test func stubServerInProcess() async throws {
        let server = try StubServer()                      // 127.0.0.1, a free port, already listening
        defer { server.stop() }                            // also runs on deinit; idempotent
        // or: try await StubServer.with { server in ... } // stops even when the body throws

        try server.stub(.get("/todos"), .json(todos))
        server.stub(.post("/todos").withHeader("Content-Type", .contains("json"))
                                   .withBody(.jsonEqual(#"{"title": "Milk"}"#)), .status(201))
        server.stub(.get("/todos"), .sequence([.status(500), try .json(todos)]))   // fail once, then succeed
        let hang = server.stub(.get("/todos"), .hang)      // the app shows "Loading…"
        // ... launch the app with server.baseURL (http://127.0.0.1:PORT) ...
        try await TerminalApp.with(TodoFixture.launch(network: server, values: TodoFixture.neverTimesOut)) { app in
            try await app.run(
                AppStep.expect(.text("[ Start ]")),
                AppStep(.press(.enter), expect: .text("Loading…"))
            )
            let request = try await server.waitForRequest(matching: .get("/todos"), timeout: .seconds(60))
            #expect(request.method == "GET" && request.path == "/todos")
            server.remove(hang)                                 // the waiting request is answered now
            try await app.run(AppStep.expect(.text("Oops"), .text("The server answered 500 Internal Server Error.")))
            try server.verify(.get("/todos"), count: .exactly(1))

            try await app.run(AppStep(.press(.enter), expect: .text("Todos (7)")))
            try server.verify(.get("/todos"), count: .exactly(2))
        }

        var post = URLRequest(url: server.baseURL.appendingPathComponent("todos"))
        post.httpMethod = "POST"
        post.setValue("application/json", forHTTPHeaderField: "Content-Type")
        post.httpBody = Data(#"{ "title" : "Milk" }"#.utf8)
        let (_, response) = try await URLSession.shared.data(for: post)
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
    }

    // MARK: - The docs and this file stay in step

    static let documents = ["docs/SNAPSHOTS.md", "docs/STUBS.md"]

    static func swiftBlocks(of document: String) throws -> [DocumentedExample] {
        let text = try DocumentedExamples.read(document, fromTestFile: #filePath)
        return DocumentedExamples.blocks(in: text, document: document, language: "swift")
    }

    @Test(arguments: documents) func everyExampleIsMirroredHere(_ document: String) throws {
        let blocks = try Self.swiftBlocks(of: document)
        #expect(!blocks.isEmpty, "no swift example found in \(document)")
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        for block in blocks {
            if let failure = DocumentedExamples.verifyMirrored(block, in: source, sourceName: "DocsExamplesTests.swift") {
                Issue.record(Comment(rawValue: failure))
            }
        }
    }

    /// A changed line of a docs example is reported with the block and the line.
    @Test func aDocsEditNotMadeHereFails() throws {
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let stubs = try #require(try Self.swiftBlocks(of: "docs/STUBS.md").first)
        var edited = stubs.lines
        let index = try #require(edited.firstIndex { $0.contains("server.remove(hang)") })
        edited[index] = "server.removeAllStubs()"
        let changed = DocumentedExample(document: stubs.document, line: stubs.line, heading: stubs.heading, lines: edited)
        let failure = try #require(DocumentedExamples.verifyMirrored(changed, in: source, sourceName: "DocsExamplesTests.swift"))
        #expect(failure.contains("docs/STUBS.md:\(stubs.line) (under \"In process\")"), "\(failure)")
        #expect(failure.contains("server.removeAllStubs()"), "\(failure)")
    }
}
