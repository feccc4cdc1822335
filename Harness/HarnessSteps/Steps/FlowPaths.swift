import Foundation
import HarnessCore

/// Lexical path helpers shared by the parser, discovery and reports (no file system access).
public enum FlowPaths {
    /// `path` if it is absolute, else `directory/path`, with `.` and `..` segments folded.
    public static func join(_ directory: String, _ path: String) -> String {
        if path.hasPrefix("/") { return normalize(path) }
        if directory.isEmpty { return normalize(path) }
        return normalize(directory + "/" + path)
    }

    /// Folds `.`, `..` and repeated `/` without touching the file system.
    public static func normalize(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
                continue
            }
            if part == "..", absolute { continue }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        if absolute { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }

    /// The directory part of `path` (`.` when there is none).
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// `path` relative to `root` when it lies under it, else nil (both normalized, absolute).
    public static func relative(_ path: String, to root: String) -> String? {
        let path = normalize(path)
        let root = normalize(root)
        if path == root { return "." }
        let prefix = root == "/" ? "/" : root + "/"
        guard path.hasPrefix(prefix) else { return nil }
        return String(path.dropFirst(prefix.count))
    }
}

/// Why the `app` of a flow could not be turned into an executable path.
public enum FlowAppResolutionError: Error, Equatable, CustomStringConvertible {
    /// The path (relative to the flow file or absolute) is not an executable file.
    case notExecutable(written: String, resolved: String)
    /// A bare name found neither in `PATH` nor beside the flow file.
    case notFound(name: String, searchPath: String)

    /// A message for the user.
    public var description: String {
        switch self {
        case .notExecutable(let written, let resolved):
            "app \"\(written)\": \(resolved) is not an executable file"
        case .notFound(let name, let searchPath):
            "app \"\(name)\": not found in PATH (\(searchPath)) nor beside the flow file"
        }
    }
}

extension FlowApp {
    /// The executable to launch.
    ///
    /// An absolute path is used as is; a path with a `/` is relative to the flow file's
    /// directory; a bare name is looked up in `searchPath` (colon-separated, like `PATH`), then
    /// beside the flow file.
    public func resolveExecutable(
        searchPath: String = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    ) throws(FlowAppResolutionError) -> String {
        let fileManager = FileManager.default
        if written.contains("/") {
            let resolved = FlowPaths.join(flowDirectory, written)
            guard fileManager.isExecutableFile(atPath: resolved) else {
                throw .notExecutable(written: written, resolved: resolved)
            }
            return resolved
        }
        for directory in searchPath.split(separator: ":") where !directory.isEmpty {
            let candidate = FlowPaths.join(String(directory), written)
            if fileManager.isExecutableFile(atPath: candidate) { return candidate }
        }
        let beside = FlowPaths.join(flowDirectory, written)
        if fileManager.isExecutableFile(atPath: beside) { return beside }
        throw .notFound(name: written, searchPath: searchPath)
    }
}
