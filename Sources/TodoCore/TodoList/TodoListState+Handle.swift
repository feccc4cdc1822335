extension TodoListState {
    /// Applies `message` and returns the effect the app must perform, if any.
    ///
    /// Pure: no I/O, no clock. Input that makes no sense in the current status (Start while
    /// loading, todos arriving while idle) leaves the state unchanged and asks for nothing.
    ///
    /// ```swift
    /// var state = TodoListState()
    /// state.handle(.start)                        // .loadTodos; state.status == .loading
    /// state.handle(.todosReceived(.success(t)))   // .saveTodos(sorted t); status == .loaded(sorted t)
    /// ```
    @discardableResult
    public mutating func handle(_ message: TodoListMessage) -> TodoListEffect? {
        switch message {
        case .start:
            guard status == .idle else { return nil }
            status = .loading
            return .loadTodos

        case .tryAgain:
            guard case .error = status else { return nil }
            status = .loading
            return .loadTodos

        case .todosReceived(let result):
            guard status == .loading else { return nil }
            switch result {
            case .success(let todos):
                let sorted = TodoOrdering.sorted(todos)
                status = .loaded(sorted)
                selection = 0
                scrollOffset = 0
                return .saveTodos(sorted)
            case .failure(let failure):
                status = .error(reason: failure.reason)
                return nil
            }

        case .moveSelection(let delta):
            select(selection + delta)
            return nil
        case .pageUp:
            select(selection - pageSize)
            return nil
        case .pageDown:
            select(selection + pageSize)
            return nil
        case .home:
            select(0)
            return nil
        case .end:
            select(todos.count - 1)
            return nil

        case .resized(let visibleRows):
            pageSize = max(1, visibleRows)
            if case .loaded = status { select(selection) }
            return nil

        case .quit:
            return .quit
        }
    }

    /// Moves the highlight to `index` (clamped) and scrolls just enough to keep it visible.
    private mutating func select(_ index: Int) {
        guard case .loaded(let todos) = status, !todos.isEmpty else { return }
        selection = min(max(index, 0), todos.count - 1)
        if selection < scrollOffset {
            scrollOffset = selection
        } else if selection >= scrollOffset + pageSize {
            scrollOffset = selection - pageSize + 1
        }
        scrollOffset = min(max(scrollOffset, 0), max(todos.count - pageSize, 0))
    }
}
