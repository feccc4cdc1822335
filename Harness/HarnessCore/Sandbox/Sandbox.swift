import Foundation
import HarnessWire
import HarnessSystem

/// A fresh private storage directory for one launch of the app.
///
/// Seed it before launch, pass ``path`` as the app's storage (`--harness-storage`),
/// read what the app really wrote after, and close it at teardown: it is removed,
/// or kept (and its path printed) when the test failed and ``keepOnFailure`` is set
/// (by default from `HARNESS_KEEP_SANDBOX=1`).
///
/// ```swift
/// let sandbox = try Sandbox()
/// try sandbox.write(Data("[]".utf8), to: "todos.json")
/// var options = LaunchOptions(storageDirectory: sandbox.path)
/// // ... launch, act ...
/// let saved = try sandbox.read("todos.json")
/// sandbox.close(failed: testFailed)
/// ```
public final class Sandbox: Sendable {
    /// The environment variable that keeps sandboxes of failed tests.
    public static let keepEnvironmentVariable = "HARNESS_KEEP_SANDBOX"

    /// The sandbox directory.
    public let url: URL
    /// The sandbox directory's path.
    public var path: String { url.path }
    /// Whether ``close(failed:)`` keeps the directory when the test failed.
    public let keepOnFailure: Bool

    private let isRemoved = Locked(false)

    /// Creates a fresh directory (mode 0700) under the temporary directory.
    public init(
        prefix: String = "harness-sandbox",
        keepOnFailure: Bool = ProcessInfo.processInfo.environment[Sandbox.keepEnvironmentVariable] == "1"
    ) throws(SandboxError) {
        let base = (ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp")
        let template = (base.hasSuffix("/") ? base : base + "/") + prefix + ".XXXXXX"
        do {
            url = URL(fileURLWithPath: try Posix.makeTemporaryDirectory(template: template), isDirectory: true)
        } catch {
            throw .creationFailed(error.description)
        }
        self.keepOnFailure = keepOnFailure
    }

    deinit {
        // A sandbox nobody closed must not leak: remove it (unless it was kept on purpose).
        close(failed: false)
    }

    /// Sets these options' storage directory to the sandbox.
    public func apply(to options: inout LaunchOptions) {
        options.storageDirectory = path
    }

    // MARK: - Before launch

    /// Writes `data` to `name` (a relative path; intermediate folders are created).
    public func write(_ data: Data, to name: String) throws(SandboxError) {
        let target = try fileURL(name)
        do {
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: target)
        } catch {
            throw .ioFailed(operation: "write", name: name, reason: error.localizedDescription)
        }
    }

    /// Writes UTF-8 `text` to `name`.
    public func write(_ text: String, to name: String) throws(SandboxError) {
        try write(Data(text.utf8), to: name)
    }

    /// Copies the file at `file` into the sandbox as `name` (default: its own file name).
    public func seed(file: URL, named name: String? = nil) throws(SandboxError) {
        let name = name ?? file.lastPathComponent
        let data: Data
        do { data = try Data(contentsOf: file) } catch {
            throw .ioFailed(operation: "seed from \(file.path)", name: name, reason: error.localizedDescription)
        }
        try write(data, to: name)
    }

    // MARK: - After the app ran

    /// The bytes of the file `name`.
    public func read(_ name: String) throws(SandboxError) -> Data {
        let source = try fileURL(name)
        guard FileManager.default.fileExists(atPath: source.path) else {
            throw .missingFile(name: name, sandbox: path, present: (try? contents()) ?? [])
        }
        do { return try Data(contentsOf: source) } catch {
            throw .ioFailed(operation: "read", name: name, reason: error.localizedDescription)
        }
    }

    /// The text of the file `name` (UTF-8).
    public func readText(_ name: String) throws(SandboxError) -> String {
        String(decoding: try read(name), as: UTF8.self)
    }

    /// Whether a file or folder `name` exists.
    public func exists(_ name: String) -> Bool {
        guard let target = try? fileURL(name) else { return false }
        return FileManager.default.fileExists(atPath: target.path)
    }

    /// The relative paths of every regular file in the sandbox, sorted.
    public func contents() throws(SandboxError) -> [String] {
        try checkNotRemoved()
        guard let enumerator = FileManager.default.enumerator(atPath: path) else {
            throw .ioFailed(operation: "list", name: ".", reason: "cannot enumerate \(path)")
        }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path + "/" + relative, isDirectory: &isDirectory), !isDirectory.boolValue {
                files.append(relative)
            }
        }
        return files.sorted()
    }

    // MARK: - Teardown

    /// Removes the directory now. Idempotent.
    public func remove() {
        let shouldRemove = isRemoved.withLock { isRemoved in
            defer { isRemoved = true }
            return !isRemoved
        }
        if shouldRemove { try? FileManager.default.removeItem(at: url) }
    }

    /// Ends the sandbox: removes it, or keeps it when `failed` and ``keepOnFailure``.
    ///
    /// - Returns: the message printed when the sandbox was kept, else nil.
    @discardableResult
    public func close(failed: Bool) -> String? {
        if failed && keepOnFailure {
            let alreadyDone = isRemoved.withLock { isRemoved in
                defer { isRemoved = true }
                return isRemoved
            }
            guard !alreadyDone else { return nil }
            let message = "sandbox kept for the failed test: \(path)"
            print(message)
            return message
        }
        remove()
        return nil
    }

    // MARK: - Helpers

    private func checkNotRemoved() throws(SandboxError) {
        if isRemoved.withLock({ $0 }) { throw .removed(path) }
    }

    private func fileURL(_ name: String) throws(SandboxError) -> URL {
        try checkNotRemoved()
        let components = name.split(separator: "/", omittingEmptySubsequences: true)
        guard !name.isEmpty, !name.hasPrefix("/"), !components.isEmpty,
            !components.contains(where: { $0 == ".." || $0 == "." })
        else { throw .invalidName(name) }
        return components.reduce(url) { $0.appendingPathComponent(String($1)) }
    }
}
