import Foundation

/// Saves and loads the todo list as JSON in one directory (`todos.json`).
///
/// Saving is atomic: the list goes to a temporary file that is flushed to disk and renamed
/// over the old one, so a crash mid-save leaves the old list or the new one, never a torn file.
///
/// ```swift
/// let store = TodoStore(directory: URL(fileURLWithPath: "/tmp/todo"))
/// try store.save(todos)
/// let again = try store.load()   // nil when nothing was ever saved
/// ```
public struct TodoStore: Sendable {
    /// The name of the file inside ``directory``.
    public static let fileName = "todos.json"

    /// The folder the list is saved in; created on the first save.
    public let directory: URL

    /// Creates a store that keeps its file in `directory`.
    public init(directory: URL) {
        self.directory = directory
    }

    /// The full path of the saved list.
    public var fileURL: URL { directory.appendingPathComponent(Self.fileName) }

    /// Writes `todos` (pretty, sorted keys) atomically, creating the folder if needed.
    public func save(_ todos: [Todo]) throws(TodoStoreError) {
        let data: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            data = try encoder.encode(todos)
        } catch {
            throw .encodingFailed(String(describing: error))
        }
        do {
            try FileSystem.makeDirectory(directory.path)
            try FileSystem.atomicWrite(data + Data("\n".utf8), to: fileURL.path)
        } catch {
            throw .writeFailed(path: error.path, operation: error.operation, errno: error.code, message: error.message)
        }
    }

    /// Reads the saved list, or `nil` when none was saved yet.
    public func load() throws(TodoStoreError) -> [Todo]? {
        let data: Data
        do {
            data = try Data(contentsOf: fileURL)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return nil
        } catch {
            if !FileManager.default.fileExists(atPath: fileURL.path) { return nil }
            throw .readFailed(path: fileURL.path, message: error.localizedDescription)
        }
        do {
            return try JSONDecoder().decode([Todo].self, from: data)
        } catch {
            throw .corrupt(path: fileURL.path, reason: DecodingDiagnostics.describe(error))
        }
    }
}

/// Why the store could not save or load.
public enum TodoStoreError: Error, Equatable, CustomStringConvertible {
    /// The list could not be turned into JSON.
    case encodingFailed(String)
    /// A system call failed while saving (a full disk is `ENOSPC`); the old file is untouched.
    case writeFailed(path: String, operation: String, errno: Int32, message: String)
    /// The file exists but could not be read.
    case readFailed(path: String, message: String)
    /// The file was read but is not a JSON list of todos.
    case corrupt(path: String, reason: String)

    public var description: String {
        switch self {
        case .encodingFailed(let reason):
            "could not encode the todos: \(reason)"
        case .writeFailed(let path, let operation, let code, let message):
            "could not save the todos: \(operation) \(path) failed: \(message) (errno \(code))"
        case .readFailed(let path, let message):
            "could not read \(path): \(message)"
        case .corrupt(let path, let reason):
            "\(path) is not a saved todo list: \(reason)"
        }
    }
}
