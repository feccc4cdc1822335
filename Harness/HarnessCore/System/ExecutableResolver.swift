import Foundation
import HarnessSystem

/// Finds the file to execute for a configuration's `executable`, before anything is spawned.
enum ExecutableResolver {
    /// An absolute path to an executable file, or a `TerminalSessionError` naming the path.
    ///
    /// A name with a slash is taken as a path (relative to the current directory); a bare name
    /// is looked up in `searchPath` (colon-separated, like `PATH`).
    static func resolve(_ executable: String, searchPath: String?) throws(TerminalSessionError) -> String {
        guard !executable.isEmpty else { throw .invalidConfiguration("the executable name is empty") }
        if executable.contains("/") {
            let path = absolute(executable)
            switch Posix.kind(ofPath: path) {
            case .executableFile: return path
            case .missing: throw .executableNotFound(path)
            case .directory, .otherFile: throw .notExecutable(path)
            }
        }
        var firstNonExecutable: String?
        for directory in (searchPath ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false) {
            let base = directory.isEmpty ? "." : String(directory)
            let candidate = absolute(base + "/" + executable)
            switch Posix.kind(ofPath: candidate) {
            case .executableFile: return candidate
            case .otherFile: if firstNonExecutable == nil { firstNonExecutable = candidate }
            case .missing, .directory: continue
            }
        }
        if let firstNonExecutable { throw .notExecutable(firstNonExecutable) }
        throw .executableNotFound(executable)
    }

    /// What both sessions check before they spawn anything: that the working directory, when
    /// given, is a directory, then the file to execute, looked up with the program's `PATH`
    /// (this process's when the environment has none).
    /// A NUL byte in the executable, an argument, the environment or the working directory is
    /// refused: a C string would end there, so `true\0rm` would silently run `true`.
    static func resolveForLaunch(
        _ executable: String, arguments: [String], environment: [String: String], workingDirectory: String?
    ) throws(TerminalSessionError) -> String {
        let named = [("the executable", executable), ("the working directory", workingDirectory ?? "")]
            + arguments.enumerated().map { ("argument \($0.offset + 1)", $0.element) }
            + environment.sorted { $0.key < $1.key }.map { ("the environment variable \($0.key.debugDescription)", $0.key + "=" + $0.value) }
        if let (what, value) = named.first(where: { $0.1.utf8.contains(0) }) {
            throw .invalidConfiguration("\(what) contains a NUL byte (\(value.debugDescription)): a program's arguments and environment cannot hold one")
        }
        if let workingDirectory, Posix.kind(ofPath: workingDirectory) != .directory {
            throw .invalidConfiguration("working directory \(workingDirectory) does not exist or is not a directory")
        }
        return try resolve(executable, searchPath: environment["PATH"] ?? ProcessInfo.processInfo.environment["PATH"])
    }

    private static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        let current = Posix.currentDirectory() ?? "."
        return current + "/" + (path.hasPrefix("./") ? String(path.dropFirst(2)) : path)
    }
}
