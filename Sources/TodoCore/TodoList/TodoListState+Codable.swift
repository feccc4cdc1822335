/// The state as JSON, for the harness bridge (`state` probe and events, the `given` handler):
///
/// ```json
/// {"status": "loaded", "todos": [...], "selection": 0, "scrollOffset": 0, "pageSize": 22}
/// {"status": "error", "reason": "The server answered 500 Internal Server Error."}
/// {"status": "idle"}
/// ```
///
/// `selection`, `scrollOffset` and `pageSize` may be left out when decoding.
extension TodoListState: Codable {
    private enum CodingKeys: String, CodingKey {
        case status, todos, reason, selection, scrollOffset, pageSize
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .status)
        let status: Status
        switch name {
        case "idle": status = .idle
        case "loading": status = .loading
        case "loaded": status = .loaded(try container.decodeIfPresent([Todo].self, forKey: .todos) ?? [])
        case "error": status = .error(reason: try container.decodeIfPresent(String.self, forKey: .reason) ?? "")
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .status, in: container,
                debugDescription: "unknown status \"\(name)\" (expected idle, loading, loaded or error)"
            )
        }
        self.init(
            status: status,
            selection: try container.decodeIfPresent(Int.self, forKey: .selection) ?? 0,
            scrollOffset: try container.decodeIfPresent(Int.self, forKey: .scrollOffset) ?? 0,
            pageSize: try container.decodeIfPresent(Int.self, forKey: .pageSize) ?? 10
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(statusName, forKey: .status)
        switch status {
        case .loaded(let todos): try container.encode(todos, forKey: .todos)
        case .error(let reason): try container.encode(reason, forKey: .reason)
        case .idle, .loading: break
        }
        try container.encode(selection, forKey: .selection)
        try container.encode(scrollOffset, forKey: .scrollOffset)
        try container.encode(pageSize, forKey: .pageSize)
    }
}

extension TodoListState {
    /// Named sample states, for starting the app on a given screen (`--harness-initial-state`)
    /// and for snapshot matrices: `idle`, `loading`, `error`, `loaded`, `empty`, `long`.
    public static func sample(named name: String) -> TodoListState? {
        switch name {
        case "idle": TodoListState()
        case "loading": TodoListState(status: .loading)
        case "error": TodoListState(status: .error(reason: "The server answered 500 Internal Server Error."))
        case "loaded": TodoListState(status: .loaded(TodoOrdering.sorted(sampleTodos)))
        case "empty": TodoListState(status: .loaded([]))
        case "long": TodoListState(status: .loaded(TodoOrdering.sorted((1 ... 200).map {
            Todo(userId: ($0 - 1) / 20 + 1, id: $0, title: "todo number \($0)", completed: $0 % 3 == 0)
        })))
        default: nil
        }
    }

    /// The names ``sample(named:)`` knows.
    public static let sampleNames = ["idle", "loading", "error", "loaded", "empty", "long"]

    /// A few todos in the shape of jsonplaceholder's, with accents, CJK and a long title.
    public static let sampleTodos: [Todo] = [
        Todo(userId: 1, id: 1, title: "delectus aut autem", completed: false),
        Todo(userId: 1, id: 2, title: "quis ut nam facilis et officia qui", completed: false),
        Todo(userId: 1, id: 3, title: "fugiat veniam minus", completed: true),
        Todo(userId: 1, id: 4, title: "Éclair au café", completed: false),
        Todo(userId: 1, id: 5, title: "買い物リスト: 牛乳と卵", completed: true),
        Todo(userId: 1, id: 6, title: "laboriosam mollitia et enim quasi adipisci quia provident illum and a very long tail that needs cutting", completed: false),
    ]
}
