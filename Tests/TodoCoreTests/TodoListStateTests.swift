import Harness
import Testing
import TodoCore

@Suite struct TodoListStateTests {
    static let unsorted = [
        Todo(userId: 1, id: 3, title: "walk the dog", completed: false),
        Todo(userId: 1, id: 1, title: "buy milk", completed: true),
        Todo(userId: 2, id: 2, title: "Call mom", completed: false),
    ]
    static let sorted = [unsorted[1], unsorted[2], unsorted[0]]
    static let failure = TodoLoadFailure(reason: "The server answered 500 Internal Server Error.")

    static func reduce(_ state: inout TodoListState, _ message: TodoListMessage) -> TodoListEffect? {
        state.handle(message)
    }

    @Test func startLoadsThenShowsTheSortedListAndSavesIt() {
        assertSteps(
            initialValue: TodoListState(),
            reducer: Self.reduce,
            steps:
                Step(.start, effect: .loadTodos) { $0.status = .loading },
                Step(.todosReceived(.success(Self.unsorted)), effect: .saveTodos(Self.sorted)) {
                    $0.status = .loaded(Self.sorted)
                }
        )
    }

    @Test func aFailedLoadShowsTheReasonAndSavesNothing() {
        assertSteps(
            initialValue: TodoListState(),
            reducer: Self.reduce,
            steps:
                Step(.start, effect: .loadTodos) { $0.status = .loading },
                Step(.todosReceived(.failure(Self.failure))) { $0.status = .error(reason: Self.failure.reason) }
        )
    }

    @Test func tryAgainLoadsAgainAndCanSucceed() {
        assertSteps(
            initialValue: TodoListState(status: .error(reason: "x")),
            reducer: Self.reduce,
            steps:
                Step(.tryAgain, effect: .loadTodos) { $0.status = .loading },
                Step(.todosReceived(.failure(Self.failure))) { $0.status = .error(reason: Self.failure.reason) },
                Step(.tryAgain, effect: .loadTodos) { $0.status = .loading },
                Step(.todosReceived(.success(Self.unsorted)), effect: .saveTodos(Self.sorted)) {
                    $0.status = .loaded(Self.sorted)
                }
        )
    }

    static let ignored: [(TodoListState.Status, TodoListMessage)] = [
        (.idle, .tryAgain),
        (.idle, .todosReceived(.success(unsorted))),
        (.idle, .moveSelection(by: 1)),
        (.idle, .end),
        (.loading, .start),
        (.loading, .tryAgain),
        (.loading, .pageDown),
        (.loaded(sorted), .start),
        (.loaded(sorted), .tryAgain),
        (.loaded(sorted), .todosReceived(.failure(failure))),
        (.loaded(sorted), .todosReceived(.success([]))),
        (.error(reason: "x"), .start),
        (.error(reason: "x"), .todosReceived(.success(unsorted))),
        (.error(reason: "x"), .home),
    ]

    @Test(arguments: ignored)
    func inputThatMakesNoSenseLeavesTheStateUnchanged(status: TodoListState.Status, message: TodoListMessage) {
        assertSteps(initialValue: TodoListState(status: status), reducer: Self.reduce, steps: Step(message))
    }

    @Test(arguments: [TodoListState.Status.idle, .loading, .loaded(sorted), .error(reason: "x")])
    func quitIsAnEffectInEveryStatus(status: TodoListState.Status) {
        assertSteps(initialValue: TodoListState(status: status), reducer: Self.reduce, steps: Step(.quit, effect: .quit))
    }

    static let hundred = (1 ... 100).map { Todo(userId: 1, id: $0, title: String(format: "item %03d", $0), completed: false) }

    @Test func scrollingKeepsTheSelectionVisibleAndClamped() {
        assertSteps(
            initialValue: TodoListState(status: .loaded(Self.hundred), pageSize: 10),
            reducer: Self.reduce,
            steps:
                Step(.moveSelection(by: -1)),
                Step(.moveSelection(by: 1)) { $0.selection = 1 },
                Step(.pageDown) { $0.selection = 11; $0.scrollOffset = 2 },
                Step(.end) { $0.selection = 99; $0.scrollOffset = 90 },
                Step(.moveSelection(by: 1)),
                Step(.pageUp) { $0.selection = 89; $0.scrollOffset = 89 },
                Step(.home) { $0.selection = 0; $0.scrollOffset = 0 },
                Step(.resized(visibleRows: 4)) { $0.pageSize = 4 },
                Step(.end) { $0.selection = 99; $0.scrollOffset = 96 },
                Step(.resized(visibleRows: 50)) { $0.pageSize = 50; $0.scrollOffset = 50 }
        )
    }

    @Test func anEmptyListCannotBeScrolled() {
        assertSteps(
            initialValue: TodoListState(),
            reducer: Self.reduce,
            steps:
                Step(.start, effect: .loadTodos) { $0.status = .loading },
                Step(.todosReceived(.success([])), effect: .saveTodos([])) { $0.status = .loaded([]) },
                Step(.end),
                Step(.moveSelection(by: 3))
        )
    }

    @Test func loadingAgainResetsTheScrollPosition() {
        var state = TodoListState(status: .loading, selection: 40, scrollOffset: 35, pageSize: 10)
        let effect = state.handle(.todosReceived(.success(Self.hundred)))
        #expect(effect == .saveTodos(Self.hundred))
        #expect(state.selection == 0 && state.scrollOffset == 0)
        #expect(state.statusName == "loaded")
    }
}
