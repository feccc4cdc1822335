import Foundation
import Harness
import Stubs
import Testing
import TestSupport
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

    /// The same todos in display order, written out (never computed with the app's own
    /// `TodoOrdering`): by title with case and accents folded, then by id.
    static let sorted: [Todo] = [
        Todo(userId: 3, id: 2, title: "answer email", completed: false),
        Todo(userId: 1, id: 3, title: "Buy milk", completed: true),
        Todo(userId: 2, id: 1, title: "call the bank", completed: false),
        Todo(userId: 3, id: 8, title: "call the bank", completed: true),
        Todo(userId: 2, id: 9, title: "éclair for Ana", completed: false),
        Todo(userId: 1, id: 7, title: "walk the dog", completed: false),
        Todo(userId: 3, id: 5, title: "買い物", completed: true),
    ]

    /// How the list rows show ``sorted`` (trailing blanks trimmed).
    static let sortedRows = [
        " [ ] answer email",
        " [x] Buy milk",
        " [ ] call the bank",
        " [x] call the bank",
        " [ ] éclair for Ana",
        " [ ] walk the dog",
        " [x] 買い物",
    ]

    /// The documented name of the saved list, inside the storage folder (README, `todo --help`).
    /// A literal on purpose: the suite never asks the app's own `TodoStore` where it saves.
    static let savedFileName = "todos.json"

    /// The exact bytes the app saves for ``sorted`` (and `todo list --json` prints): pretty JSON,
    /// keys sorted, one trailing newline, as the bundled flows' `fixtures/sorted.json`.
    static let savedJSON = """
        [
          {
            "completed" : false,
            "id" : 2,
            "title" : "answer email",
            "userId" : 3
          },
          {
            "completed" : true,
            "id" : 3,
            "title" : "Buy milk",
            "userId" : 1
          },
          {
            "completed" : false,
            "id" : 1,
            "title" : "call the bank",
            "userId" : 2
          },
          {
            "completed" : true,
            "id" : 8,
            "title" : "call the bank",
            "userId" : 3
          },
          {
            "completed" : false,
            "id" : 9,
            "title" : "éclair for Ana",
            "userId" : 2
          },
          {
            "completed" : false,
            "id" : 7,
            "title" : "walk the dog",
            "userId" : 1
          },
          {
            "completed" : true,
            "id" : 5,
            "title" : "買い物",
            "userId" : 3
          }
        ]

        """

    /// Titles too long for a 40-column screen: ASCII, CJK (two columns each), an emoji outside
    /// the old wide ranges.
    static let longTitles: [Todo] = [
        Todo(userId: 1, id: 1, title: "🚀 launch the rocket to the moon and back", completed: false),
        Todo(userId: 1, id: 2, title: "買い物リストと牛乳と卵とパンとバターとチーズ", completed: true),
        Todo(userId: 1, id: 3, title: "a title far too long for a forty column screen", completed: false),
    ]

    /// 200 todos, as jsonplaceholder serves them.
    static let twoHundred: [Todo] = (1 ... 200).map {
        Todo(userId: ($0 - 1) / 20 + 1, id: $0, title: String(format: "todo %03d", 201 - $0), completed: $0 % 4 == 0)
    }

    /// 2023-11-14 22:13:20 UTC: the header shows "loaded 22:13".
    static let clock = Date(timeIntervalSince1970: 1_700_000_000)

    /// The limit of the suite's waits, which all must succeed: ``mustSucceedTimeout`` (it only
    /// catches a hang, however loaded the machine), or `HARNESS_ACCEPTANCE_WAIT_SECONDS` when
    /// set: `Scripts/mutate.sh` sets 10, so that a mutant which makes a wait fail is killed in
    /// 10 s rather than 60.
    static let waitLimit: Duration = {
        let text = ProcessInfo.processInfo.environment["HARNESS_ACCEPTANCE_WAIT_SECONDS"] ?? ""
        guard let seconds = Int(text), seconds > 0 else { return mustSucceedTimeout }
        return .seconds(seconds)
    }()

    /// Launch values that make the app's request timeout a day: with a hanging stub the app then
    /// stays on "Loading…" until the test ends it, however slowly the machine runs the test.
    /// Every launch of ``launch(network:size:values:)`` has them unless `values` sets its own
    /// `api.timeout` (the test of the timeout sets 1 s): with the app's own 10 s, a machine
    /// loaded enough made a stub's answer arrive after it, and the app showed "did not answer
    /// in time" where the test expected the list.
    static let neverTimesOut = ["api.timeout": "86400"]

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
        launch.values = neverTimesOut.merging(values) { $1 }
        launch.environment = ["TERM": "xterm-256color", "LANG": "C.UTF-8"]
        launch.unsetEnvironment = ["NO_COLOR"]
        launch.defaultTimeout = waitLimit
        return launch
    }

    /// A launch of `todo` as a user runs it from a shell: no launch protocol (no sandbox, bridge
    /// or clock passed), only `arguments`; `executable` replaces `todo` (e.g. a shell around it).
    static func plainLaunch(
        executable: String? = nil,
        arguments: [String],
        environment: [String: String] = [:]
    ) throws -> AppLaunch {
        var launch = try launch()
        if let executable { launch.executable = executable }
        launch.launchProtocol = .none
        launch.frozenClock = nil
        launch.arguments = arguments
        launch.environment.merge(environment) { _, new in new }
        return launch
    }

    /// The built `todo`'s path.
    static func todoPath() throws -> String {
        try BuildProducts.executable(named: "todo").path
    }

    /// Runs `body` with a fresh empty folder, removed afterwards.
    static func withTemporaryFolder<R>(_ body: (URL) async throws -> R) async throws -> R {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("todo-acceptance-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder)
    }

    /// A base URL where nothing listens: a stub server's port right after it stopped.
    /// A port that refuses connections while the returned value lives (keep it until the app
    /// has tried): a stopped stub server's port could be given to another test's server.
    static func refusingPort() throws -> RefusingPort {
        try RefusingPort()
    }
}

extension TerminalApp {
    /// The todos the app saved to its sandbox under the documented name, decoded (nil when
    /// no such file was written).
    func savedTodos() throws -> [Todo]? {
        guard sandbox.exists(TodoFixture.savedFileName) else { return nil }
        return try JSONDecoder().decode([Todo].self, from: sandbox.read(TodoFixture.savedFileName))
    }

    /// The saved file's exact text (nil when no such file was written).
    func savedText() throws -> String? {
        guard sandbox.exists(TodoFixture.savedFileName) else { return nil }
        return try sandbox.readText(TodoFixture.savedFileName)
    }

    /// The app's `database.save` spy.
    func saves() throws -> SpyHandle<[Todo]> {
        try bridge.spy("database.save", as: [Todo].self)
    }
}
