/// One item of the todo list, as served by `GET /todos` on jsonplaceholder.
///
/// The JSON keys are exactly the public API's (`userId`, `id`, `title`, `completed`), so
/// the same value decodes from the network and encodes to the disk store.
public struct Todo: Codable, Equatable, Hashable, Identifiable, Sendable {
    /// The owner of the todo.
    public var userId: Int
    /// The todo's identifier, unique within a list.
    public var id: Int
    /// What has to be done.
    public var title: String
    /// Whether it has been done.
    public var completed: Bool

    /// Creates a todo.
    public init(userId: Int, id: Int, title: String, completed: Bool) {
        self.userId = userId
        self.id = id
        self.title = title
        self.completed = completed
    }
}
