/// Everything the todo screen shows, as a value: the logic half of the app.
///
/// The state changes only through ``handle(_:)``, which is pure: it returns the effect the
/// app must then perform (load, save, quit) instead of performing it.
public struct TodoListState: Equatable, Sendable {
    /// Where the list is in its life.
    public enum Status: Equatable, Sendable {
        /// Nothing asked yet: the screen shows a focused `[ Start ]` button.
        case idle
        /// The todos were asked for and have not arrived.
        case loading
        /// The todos arrived; they are kept in display order.
        case loaded([Todo])
        /// Loading failed; `reason` says why in words for the user.
        case error(reason: String)
    }

    /// Where the list is in its life.
    public var status: Status
    /// The index of the highlighted todo when loaded.
    public var selection: Int
    /// The index of the first todo shown when loaded.
    public var scrollOffset: Int
    /// How many todos fit on the screen at once (at least 1).
    public var pageSize: Int

    /// Creates a state; the default is the first screen.
    public init(status: Status = .idle, selection: Int = 0, scrollOffset: Int = 0, pageSize: Int = 10) {
        self.status = status
        self.selection = selection
        self.scrollOffset = scrollOffset
        self.pageSize = max(1, pageSize)
    }

    /// The loaded todos, or an empty list in any other status.
    public var todos: [Todo] {
        if case .loaded(let todos) = status { return todos }
        return []
    }

    /// A short name of the status (`idle`, `loading`, `loaded`, `error`), for logs and events.
    public var statusName: String {
        switch status {
        case .idle: "idle"
        case .loading: "loading"
        case .loaded: "loaded"
        case .error: "error"
        }
    }
}

/// What can happen to the todo list: the user's input, and the outcome of effects.
public enum TodoListMessage: Equatable, Sendable {
    /// The user activated `[ Start ]`.
    case start
    /// The user activated `[ Try again ]`.
    case tryAgain
    /// The user moved the highlight by `delta` rows (arrows, j/k).
    case moveSelection(by: Int)
    /// The user asked for the previous page.
    case pageUp
    /// The user asked for the next page.
    case pageDown
    /// The user asked for the first todo.
    case home
    /// The user asked for the last todo.
    case end
    /// The screen now has room for `rows` todos.
    case resized(visibleRows: Int)
    /// The user asked to quit.
    case quit
    /// The outcome of a ``TodoListEffect/loadTodos`` effect.
    case todosReceived(Result<[Todo], TodoLoadFailure>)
}

/// Why loading the todos failed, in words for the screen.
public struct TodoLoadFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The reason shown under `Oops`.
    public var reason: String
    /// Creates a failure with a reason for the user.
    public init(reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// Work the app must do after a message; the state machine never does it itself.
public enum TodoListEffect: Equatable, Sendable {
    /// Fetch the todos, then send ``TodoListMessage/todosReceived(_:)``.
    case loadTodos
    /// Write these todos to the store.
    case saveTodos([Todo])
    /// Leave the app.
    case quit
}
