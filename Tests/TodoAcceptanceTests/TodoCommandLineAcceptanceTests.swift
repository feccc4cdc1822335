import Foundation
import Harness
import Stubs
import Testing

/// The todo app as a user runs it from a shell, without the launch protocol: `todo list`,
/// usage errors, where the list is saved by default, and the terminal handed back afterwards.
@Suite(.tags(.acceptance))
struct TodoCommandLineAcceptanceTests {
    // MARK: todo list

    @Test func listPrintsTheSortedTodos() async throws {
        let server = try StubServer()
        defer { server.stop() }
        try server.stub(.get("/todos"), .json(TodoFixture.unsorted))
        let app = try PipedApp.launch(TodoFixture.plainLaunch(arguments: ["list", "--api-url", server.baseURL.absoluteString]))
        defer { app.close(failed: false) }
        let output = try await app.session.waitForExit()
        #expect(output.status == .exited(0))
        #expect(output.standardOutput == TodoFixture.sortedRows.map { $0.dropFirst() + "\n" }.joined())
        #expect(output.standardError.isEmpty)
        try server.verify(.get("/todos"), count: .exactly(1))
    }

    @Test func listJSONPrintsWhatTheAppSaves() async throws {
        let server = try StubServer()
        defer { server.stop() }
        try server.stub(.get("/todos"), .json(TodoFixture.unsorted))
        let app = try PipedApp.launch(TodoFixture.plainLaunch(arguments: ["list", "--json", "--api-url", server.baseURL.absoluteString]))
        defer { app.close(failed: false) }
        let output = try await app.session.waitForExit()
        #expect(output.status == .exited(0))
        #expect(output.standardOutput == TodoFixture.savedJSON)
    }

    @Test func listThatCannotLoadExits1WithTheReasonOnStderr() async throws {
        let server = try StubServer()
        defer { server.stop() }
        server.stub(.get("/todos"), .text("database down", status: 500))
        let app = try PipedApp.launch(TodoFixture.plainLaunch(arguments: ["list", "--api-url", server.baseURL.absoluteString]))
        defer { app.close(failed: false) }
        let output = try await app.session.waitForExit()
        #expect(output.status == .exited(1))
        #expect(output.standardOutput.isEmpty)
        #expect(output.standardError.hasPrefix("todo: could not load the todos from http://"))
        #expect(output.standardError.hasSuffix("/todos: The server answered 500 Internal Server Error.\n"))
    }

    // MARK: Usage

    @Test func anUnknownOptionExits64WithTheUsageOnStderr() async throws {
        let app = try PipedApp.launch(TodoFixture.plainLaunch(arguments: ["--bogus"]))
        defer { app.close(failed: false) }
        let output = try await app.session.waitForExit()
        #expect(output.status == .exited(64))
        #expect(output.standardOutput.isEmpty)
        #expect(output.standardError.hasPrefix("todo: unknown option --bogus\n\nUsage: todo "))
    }

    // MARK: Where the list goes

    /// Without `--storage` the list goes to `$XDG_DATA_HOME/todo/todos.json`, in a folder the
    /// app creates.
    @Test func theListIsSavedUnderXDGDataHomeByDefault() async throws {
        let server = try StubServer()
        defer { server.stop() }
        try server.stub(.get("/todos"), .json(TodoFixture.unsorted))
        try await TodoFixture.withTemporaryFolder { dataHome in
            let launch = try TodoFixture.plainLaunch(
                arguments: ["--api-url", server.baseURL.absoluteString],
                environment: ["XDG_DATA_HOME": dataHome.path]
            )
            try await TerminalApp.with(launch) { app in
                try await app.run(
                    AppStep.expect(.text("[ Start ]")),
                    AppStep(.press(.enter), expect: .text("Todos (7)"))
                )
            }
            let saved = dataHome.appendingPathComponent("todo").appendingPathComponent(TodoFixture.savedFileName)
            #expect(try String(contentsOf: saved, encoding: .utf8) == TodoFixture.savedJSON)
        }
    }

    // MARK: The terminal handed back

    /// After `q` the shell gets its terminal back in the mode it was in (cooked, echoing):
    /// `stty -g` reads the same before and after.
    @Test func quittingHandsTheShellBackTheTerminalAsItWas() async throws {
        try await TodoFixture.withTemporaryFolder { storage in
            let script = #"""
                before=$(stty -g); "$0" "$@"; status=$?
                if [ "$(stty -g)" = "$before" ]; then echo "terminal as before, todo exited $status"
                else echo "terminal changed, todo exited $status"; fi
                """#
            let launch = try TodoFixture.plainLaunch(
                executable: "/bin/sh",
                arguments: ["-c", script, TodoFixture.todoPath(), "--storage", storage.path]
            )
            try await TerminalApp.with(launch) { app in
                try await app.run(
                    AppStep.expect(.text("[ Start ]")),
                    AppStep(.press(.character("q")), expect: .regex("^terminal (as before|changed), todo exited"), .exit(.exited(0)))
                )
                #expect(app.session.screen.lines.contains("terminal as before, todo exited 0"), "\(app.session.screen.text)")
            }
        }
    }
}
