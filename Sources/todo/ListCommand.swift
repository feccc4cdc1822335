import Foundation
import TodoCore

/// `todo list [--json]`: prints the sorted todos without a UI and returns the exit status.
enum ListCommand {
    static func run(api: TodoAPI, json: Bool) async -> Int32 {
        do {
            let todos = TodoOrdering.sorted(try await api.fetchTodos())
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                let data = try encoder.encode(todos)
                FileHandle.standardOutput.write(data + Data("\n".utf8))
            } else {
                let lines = todos.map { "\($0.completed ? "[x]" : "[ ]") \($0.title)\n" }.joined()
                FileHandle.standardOutput.write(Data(lines.utf8))
            }
            return 0
        } catch let error as TodoAPIError {
            FileHandle.standardError.write(Data("todo: could not load the todos from \(api.todosURL.absoluteString): \(error)\n".utf8))
            return 1
        } catch {
            FileHandle.standardError.write(Data("todo: \(error)\n".utf8))
            return 1
        }
    }
}
