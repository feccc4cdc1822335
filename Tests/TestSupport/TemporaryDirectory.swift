import Foundation

/// A fresh folder `<prefix>-<UUID>` in the system's temporary folder, for one test.
///
/// Remove it with ``remove()`` in a `defer` (a `deinit` could run before the test's last use of
/// a path inside it), or use `withTemporaryDirectory(prefix:_:)`.
///
/// ```swift
/// let folder = try TemporaryDirectory(prefix: "store")
/// defer { folder.remove() }
/// try folder.write("[]", at: "data/todos.json")
/// ```
public struct TemporaryDirectory: Sendable {
    /// The folder.
    public let url: URL

    /// The folder's path.
    public var path: String { url.path }

    /// Creates the folder.
    public init(prefix: String = "harness-tests") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Removes the folder and everything in it (nothing happens when it is gone already).
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `text` at `relative` inside the folder, creating the folders on the way; returns
    /// the file's absolute path.
    @discardableResult
    public func write(_ text: String, at relative: String, executable: Bool = false) throws -> String {
        try writeFile(text, at: relative, in: path, executable: executable)
    }
}

/// Runs `body` with a fresh temporary folder, removed afterwards even when the body throws.
public func withTemporaryDirectory<T>(prefix: String = "harness-tests", _ body: (URL) throws -> T) throws -> T {
    let folder = try TemporaryDirectory(prefix: prefix)
    defer { folder.remove() }
    return try body(folder.url)
}

/// The async form of `withTemporaryDirectory(prefix:_:)`.
public func withTemporaryDirectory<T>(prefix: String = "harness-tests", _ body: (URL) async throws -> T) async throws -> T {
    let folder = try TemporaryDirectory(prefix: prefix)
    defer { folder.remove() }
    return try await body(folder.url)
}

/// Writes `text` to `folder/relative`, creating the folders on the way (mode 0755 when
/// `executable`); returns the file's absolute path.
@discardableResult
public func writeFile(_ text: String, at relative: String, in folder: String, executable: Bool = false) throws -> String {
    let url = URL(fileURLWithPath: folder).appendingPathComponent(relative)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
    if executable { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path) }
    return url.path
}

/// The UTF-8 text of a file, or nil when it does not exist.
public func contents(of url: URL) -> String? {
    guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
    return String(decoding: data, as: UTF8.self)
}

/// The names of the files in a folder, sorted ([] when it does not exist).
public func fileNames(in url: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
}
