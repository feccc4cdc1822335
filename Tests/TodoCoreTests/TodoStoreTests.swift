import Foundation
import TestSupport
import Testing
import TodoCore

@Suite struct TodoStoreTests {
    static let todos = [
        Todo(userId: 1, id: 1, title: "delectus aut autem", completed: false),
        Todo(userId: 1, id: 2, title: "日本語 ✓ \"quoted\" / slash", completed: true),
    ]

    @Test func savedTodosLoadBackEqual() throws {
        let folder = try TemporaryDirectory(prefix: "todo-store")
        defer { folder.remove() }
        let store = TodoStore(directory: folder.url.appendingPathComponent("nested/deeper"))
        #expect(try store.load() == nil)
        try store.save(Self.todos)
        #expect(try store.load() == Self.todos)
    }

    @Test func theFileIsJSONInTheServiceShape() throws {
        let folder = try TemporaryDirectory(prefix: "todo-store")
        defer { folder.remove() }
        let store = TodoStore(directory: folder.url)
        try store.save(Self.todos)
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: store.fileURL)) as? [[String: Any]]
        #expect(object?.count == 2)
        #expect(Set(object?.first?.keys ?? [:].keys) == ["userId", "id", "title", "completed"])
    }

    @Test func savingReplacesTheOldListAndLeavesNoTemporaryFile() throws {
        let folder = try TemporaryDirectory(prefix: "todo-store")
        defer { folder.remove() }
        let store = TodoStore(directory: folder.url)
        try store.save(Self.todos)
        try store.save([Self.todos[1]])
        #expect(try store.load() == [Self.todos[1]])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == [TodoStore.fileName])
    }

    @Test func aFailedSaveKeepsNothingHalfWritten() throws {
        let folder = try TemporaryDirectory(prefix: "todo-store")
        defer { folder.remove() }
        let store = TodoStore(directory: folder.url)
        // A non-empty folder where the file should be: the final rename must fail.
        try FileManager.default.createDirectory(at: store.fileURL.appendingPathComponent("x"), withIntermediateDirectories: true)
        #expect {
            try store.save(Self.todos)
        } throws: { error in
            guard case .writeFailed(_, let operation, _, _) = error as? TodoStoreError else { return false }
            return operation == "rename"
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == [TodoStore.fileName])
    }

    @Test func aStorageFolderThatIsAFileIsAClearError() throws {
        let folder = try TemporaryDirectory(prefix: "todo-store")
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("plain-file")
        try Data("x".utf8).write(to: file)
        let store = TodoStore(directory: file)
        #expect(throws: TodoStoreError.self) { try store.save(Self.todos) }
    }

    @Test(arguments: ["", "{", "[{\"id\": 1}]", "{\"todos\": []}", "[1, 2]", "\u{FF}\u{FE}"])
    func aCorruptFileIsATypedError(contents: String) throws {
        let folder = try TemporaryDirectory(prefix: "todo-store")
        defer { folder.remove() }
        let store = TodoStore(directory: folder.url)
        try Data(contents.utf8).write(to: store.fileURL)
        #expect {
            _ = try store.load()
        } throws: { error in
            guard case .corrupt(let path, let reason) = error as? TodoStoreError else { return false }
            return path == store.fileURL.path && !reason.isEmpty
        }
    }
}
