import Foundation
import HarnessSystem

/// A mapping's `bodyFile`: a relative path that must lead, symbolic links followed, to a regular
/// file inside one folder (the mapping file's folder, or the folder given with `--files`).
///
/// Checked when the mapping is read, and again each time the response is sent, since the
/// folder may change in between: an absolute path, a `..` that leaves the folder, or a
/// symbolic link that leads out of it is refused, never read.
///
/// ```swift
/// let file = try StubBodyFile("todos.json", inside: URL(fileURLWithPath: "stubs"))
/// server.stub(.get("/todos"), StubResponse(body: .bodyFile(file)))
/// ```
public struct StubBodyFile: Sendable, Hashable, CustomStringConvertible {
    /// The real path (`realpath(3)`) of the folder the file must stay inside.
    public let root: String
    /// The path as the mapping wrote it, relative to `root`.
    public let path: String

    /// Checks that `path` names a regular file inside `folder`.
    /// - Throws: `StubBodyFileError` naming the path, the folder and what is wrong.
    public init(_ path: String, inside folder: URL) throws(StubBodyFileError) {
        let root: String
        do {
            root = try Posix.realPath(folder.path)
        } catch {
            throw StubBodyFileError(path: path, root: folder.path, problem: .unusableRoot(error.description))
        }
        guard Posix.fileStatus(ofPath: root)?.isDirectory == true else {
            throw StubBodyFileError(path: path, root: root, problem: .unusableRoot("not a folder"))
        }
        self.root = root
        self.path = path
        _ = try resolve()
    }

    /// `todos.json (in /srv/stubs)`.
    public var description: String { "\(path) (in \(root))" }

    /// The real path of the file after checking, again, that it is a regular file inside `root`.
    /// - Throws: `StubBodyFileError` when it no longer is.
    public func resolve() throws(StubBodyFileError) -> String {
        func refuse(_ problem: StubBodyFileError.Problem) -> StubBodyFileError {
            StubBodyFileError(path: path, root: root, problem: problem)
        }
        if path.isEmpty { throw refuse(.empty) }
        if path.utf8.contains(0) { throw refuse(.nulByte) }
        if path.hasPrefix("/") { throw refuse(.absolute) }
        // Refused before the file system is asked, so that the answer says nothing about files
        // outside the folder (whether they exist).
        var depth = 0
        for component in path.split(separator: "/", omittingEmptySubsequences: true) where component != "." {
            depth += component == ".." ? -1 : 1
            if depth < 0 { throw refuse(.leavesRoot) }
        }
        let joined = (root == "/" ? "" : root) + "/" + path
        let real: String
        do {
            real = try Posix.realPath(joined)
        } catch {
            throw refuse(.missing(joined))
        }
        guard Posix.isPath(real, inside: root) else { throw refuse(.linksOutside(real)) }
        guard Posix.fileStatus(ofPath: real)?.isRegularFile == true else { throw refuse(.notRegularFile(real)) }
        return real
    }

    /// The file's bytes, read after the checks of `resolve()`; on Linux the opened descriptor's
    /// path is checked too, so a link swapped in between is not followed out of the folder.
    func read() throws(StubBodyFileError) -> Data {
        let real = try resolve()
        let fd: Int32
        do {
            fd = try Posix.openForReading(real)
        } catch {
            throw StubBodyFileError(path: path, root: root, problem: .unreadable(error.description))
        }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        if let opened = Posix.descriptorTarget(fd), !Posix.isPath(opened, inside: root) {
            throw StubBodyFileError(path: path, root: root, problem: .linksOutside(opened))
        }
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            throw StubBodyFileError(path: path, root: root, problem: .unreadable(error.localizedDescription))
        }
    }
}

/// A `bodyFile` that is refused: outside its folder, missing, or not a regular file.
public struct StubBodyFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Problem: Sendable, Hashable {
        /// The path is empty.
        case empty
        /// The path contains a NUL byte.
        case nulByte
        /// The path starts with `/`.
        case absolute
        /// A `..` climbs above the folder.
        case leavesRoot
        /// A symbolic link leads to this real path, outside the folder.
        case linksOutside(String)
        /// Nothing exists at this path (or a folder on the way cannot be searched).
        case missing(String)
        /// The real path is a folder, a FIFO, a device...
        case notRegularFile(String)
        /// The file cannot be opened or read.
        case unreadable(String)
        /// The folder itself cannot be used.
        case unusableRoot(String)
        /// No folder was given, so no body file is allowed.
        case noRoot
    }

    /// The path as written.
    public let path: String
    /// The folder the file must stay inside (empty for `noRoot`).
    public let root: String
    /// What is wrong.
    public let problem: Problem

    /// One sentence naming the path and the folder.
    public var description: String {
        let rule = "body files must stay inside \(root)"
        switch problem {
        case .empty: return "expected a file name relative to \(root)"
        case .nulByte: return "\"\(path)\" contains a NUL byte"
        case .absolute: return "\"\(path)\" is an absolute path; give a path relative to \(root) (\(rule))"
        case .leavesRoot: return "\"\(path)\" leaves the folder \(root) through \"..\" (\(rule))"
        case .linksOutside(let real):
            return "\"\(path)\" leads to \(real) through a symbolic link, outside the folder \(root) (\(rule))"
        case .missing(let joined): return "no such file: \(joined)"
        case .notRegularFile(let real): return "\"\(path)\" is not a regular file (\(real))"
        case .unreadable(let reason): return "\"\(path)\" in \(root) cannot be read: \(reason)"
        case .unusableRoot(let reason): return "the files folder \(root) cannot be used for \"\(path)\": \(reason)"
        case .noRoot:
            return "bodyFile \"\(path)\" is refused: this server has no files folder "
                + "(stub-server takes the mapping file's folder or --files DIR; in process, set StubServer.Options.filesDirectory)"
        }
    }
}
