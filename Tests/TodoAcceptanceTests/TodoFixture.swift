import Foundation
import Harness
import Stubs
import Testing
import TodoCore

extension Tag {
    /// End-to-end tests of the todo app through a pseudo-terminal.
    @Tag static var acceptance: Self
}

/// What every acceptance test of the todo app shares: the binary, the data, the clock.
enum TodoFixture {
    /// Todos in an order that is not the display order (accents, case, CJK, a tie on title).
    static let unsorted: [Todo] = [
        Todo(userId: 1, id: 7, title: "walk the dog", completed: false),
        Todo(userId: 1, id: 3, title: "Buy milk", completed: true),
        Todo(userId: 2, id: 9, title: "éclair for Ana", completed: false),
        Todo(userId: 2, id: 1, title: "call the bank", completed: false),
        Todo(userId: 3, id: 5, title: "買い物", completed: true),
        Todo(userId: 3, id: 2, title: "answer email", completed: false),
        Todo(userId: 3, id: 8, title: "call the bank", completed: true),
    ]

    /// The same todos in display order.
    static let sorted = TodoOrdering.sorted(unsorted)

    /// 200 todos, as jsonplaceholder serves them.
    static let twoHundred: [Todo] = (1 ... 200).map {
        Todo(userId: ($0 - 1) / 20 + 1, id: $0, title: String(format: "todo %03d", 201 - $0), completed: $0 % 4 == 0)
    }

    /// 2023-11-14 22:13:20 UTC: the header shows "loaded 22:13".
    static let clock = Date(timeIntervalSince1970: 1_700_000_000)

    /// A launch of the built `todo` with the network at `server`, a frozen clock and color on
    /// (`swift test` sets `NO_COLOR`; the app must not inherit it).
    static func launch(
        network server: StubServer? = nil,
        size: TerminalSize = .standard,
        values: [String: String] = [:]
    ) throws -> AppLaunch {
        var launch = AppLaunch(executable: try BuildProducts.executable(named: "todo").path)
        launch.launchProtocol = .bridge
        launch.network = server?.baseURL
        launch.size = size
        launch.frozenClock = clock
        launch.values = values
        launch.environment = ["TERM": "xterm-256color", "LANG": "C.UTF-8"]
        launch.unsetEnvironment = ["NO_COLOR"]
        launch.defaultTimeout = .seconds(10)
        return launch
    }

    /// A base URL where nothing listens: a stub server's port right after it stopped.
    static func refusedURL() throws -> URL {
        let server = try StubServer()
        let url = server.baseURL
        server.stop()
        return url
    }
}

extension TerminalApp {
    /// The todos the app saved to its sandbox, decoded (nil when no file was written).
    func savedTodos() throws -> [Todo]? {
        guard sandbox.exists(TodoStore.fileName) else { return nil }
        return try JSONDecoder().decode([Todo].self, from: sandbox.read(TodoStore.fileName))
    }

    /// The app's `database.save` spy.
    func saves() throws -> SpyHandle<[Todo]> {
        try bridge.spy("database.save", as: [Todo].self)
    }
}
