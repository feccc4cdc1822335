import Foundation
import HarnessCore
import HarnessSteps
import HarnessSystem

/// Why flows could not be listed.
public enum FlowDiscoveryError: Error, Equatable, CustomStringConvertible {
    /// A path given on the command line does not exist.
    case pathNotFound(String)
    /// The `--filter` pattern does not compile.
    case invalidFilter(pattern: String)

    /// A message for the user.
    public var description: String {
        switch self {
        case .pathNotFound(let path): "no such file or folder: \(path)"
        case .invalidFilter(let pattern): "--filter: invalid regex /\(pattern)/"
        }
    }
}

/// Something discovery passed over, said on standard error by `harness run` (the run goes on).
public enum FlowDiscoveryWarning: Equatable, Sendable, CustomStringConvertible {
    /// A symbolic link to a folder that holds it: following it would never end.
    case symbolicLinkLoop(link: String, target: String)
    /// A `.flow` that is a symbolic link to nothing.
    case danglingLink(String)
    /// A folder that cannot be listed.
    case unreadableFolder(String, reason: String)
    /// A `.flow` file, or a folder, whose name is not valid UTF-8: a flow is named by its path
    /// as text, so it is not run (the name is shown with the invalid bytes as `\xNN`).
    case nonUTF8Name(String, isFolder: Bool)

    /// A message for the user.
    public var description: String {
        switch self {
        case .symbolicLinkLoop(let link, let target):
            "\(link): a symbolic link back to \(target), which holds it (a loop): not followed"
        case .danglingLink(let path): "\(path): a symbolic link to nothing: skipped"
        case .unreadableFolder(let path, let reason): "\(path): cannot list the folder (\(reason)): skipped"
        case .nonUTF8Name(let path, isFolder: false):
            "\(path): the flow's name is not valid UTF-8: not run (rename it)"
        case .nonUTF8Name(let path, isFolder: true):
            "\(path): the folder's name is not valid UTF-8: the flows in it are not run (rename it)"
        }
    }
}

/// Finds the `.flow` files to run.
///
/// Folders are searched recursively, following symbolic links to files and folders (Bazel's
/// runfiles are a tree of links), hidden files and folders skipped; files named explicitly are
/// taken whatever their extension. A link to a folder that holds it is a loop: it is reported
/// once as a ``FlowDiscoveryWarning`` and not followed. Each flow gets a relative path from
/// the path it was found by (links are not resolved in names): relative to `root` when under
/// it, else the given path's last folder name plus the path inside it. The result has no
/// duplicates (a file reached by several paths is kept once, under the first path in order) and
/// is sorted by relative path.
///
/// ```swift
/// let flows = try FlowDiscovery.discover(["Tests/Flows"], filter: "login")
/// ```
public enum FlowDiscovery {
    /// The flows under `paths`, optionally kept only when `filter` (a regex) matches their
    /// relative path; `warn` hears what was passed over.
    public static func discover(
        _ paths: [String],
        root: String = FileManager.default.currentDirectoryPath,
        filter: String? = nil,
        warn: (FlowDiscoveryWarning) -> Void = { _ in }
    ) throws(FlowDiscoveryError) -> [FlowFile] {
        let matcher: FlowPathFilter?
        do {
            matcher = try filter.map { pattern throws(FlowDiscoveryError) in try FlowPathFilter(pattern) }
        }
        let fileManager = FileManager.default
        var found: [FlowFile] = []
        for given in paths {
            let absolute = FlowPaths.join(root, given)
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: absolute, isDirectory: &isDirectory) else {
                throw .pathNotFound(given)
            }
            let fallbackBase = isDirectory.boolValue
                ? FlowPaths.normalize(given).split(separator: "/").last.map(String.init) ?? "."
                : ""
            func name(_ file: String) -> String {
                FlowPaths.relative(file, to: root)
                    ?? (isDirectory.boolValue
                        ? FlowPaths.join(fallbackBase, FlowPaths.relative(file, to: absolute) ?? file)
                        : (file.split(separator: "/").last.map(String.init) ?? file))
            }
            if isDirectory.boolValue {
                let files = flowFiles(under: absolute) { warning in
                    switch warning {
                    case .symbolicLinkLoop(let link, let target): warn(.symbolicLinkLoop(link: name(link), target: name(target)))
                    case .danglingLink(let path): warn(.danglingLink(name(path)))
                    case .unreadableFolder(let path, let reason): warn(.unreadableFolder(name(path), reason: reason))
                    case .nonUTF8Name(let path, let isFolder): warn(.nonUTF8Name(name(path), isFolder: isFolder))
                    }
                }
                found += files.map { FlowFile(path: $0, relativePath: name($0)) }
            } else {
                found.append(FlowFile(path: absolute, relativePath: name(absolute)))
            }
        }
        // One flow per file, however many paths lead to it: the first in order keeps it.
        var seen = Set<Posix.FileIdentity>()
        var flows = found.sorted().filter { flow in
            guard let identity = Posix.fileStatus(ofPath: flow.path)?.identity else { return true }
            return seen.insert(identity).inserted
        }
        if let matcher { flows = flows.filter { matcher.matches($0.relativePath) } }
        return flows
    }

    /// Every `*.flow` file under `directory`, recursively and through symbolic links, as
    /// absolute paths by the links' names.
    private static func flowFiles(under directory: String, warn: (FlowDiscoveryWarning) -> Void) -> [String] {
        guard let top = Posix.fileStatus(ofPath: directory) else { return [] }
        var files: [String] = []
        collect(in: FlowPaths.normalize(directory), ancestors: [top.identity: FlowPaths.normalize(directory)],
                into: &files, warn: warn)
        return files
    }

    /// Adds the flows of `directory` to `files`; `ancestors` are the folders the walk is in
    /// (by identity), so a link back to one of them is a loop.
    private static func collect(
        in directory: String, ancestors: [Posix.FileIdentity: String], into files: inout [String],
        warn: (FlowDiscoveryWarning) -> Void
    ) {
        let entries: [Posix.DirectoryEntry]
        do {
            entries = try Posix.directoryEntries(directory)
        } catch {
            warn(.unreadableFolder(directory, reason: error.message))
            return
        }
        var names: [String] = []
        var statuses: [String: Posix.FileStatus] = [:]
        for entry in entries where entry.name.first != UInt8(ascii: ".") {
            guard let name = entry.text else {
                // Not text: it cannot be named, so it cannot run; said, never passed over silently.
                let isFolder = entry.status?.isDirectory ?? false
                if isFolder || entry.name.suffix(5).elementsEqual(".flow".utf8) {
                    warn(.nonUTF8Name(directory + "/" + PrintableBytes.escape(entry.name), isFolder: isFolder))
                }
                continue
            }
            names.append(name)
            statuses[name] = entry.status
        }
        for name in names.sorted() {
            let path = directory + "/" + name
            let isFlowName = name.hasSuffix(".flow")
            guard let status = statuses[name] else {
                if isFlowName, Posix.isSymbolicLink(path) { warn(.danglingLink(path)) }
                continue
            }
            if status.isDirectory {
                if let ancestor = ancestors[status.identity] {
                    warn(.symbolicLinkLoop(link: path, target: ancestor))
                    continue
                }
                var inner = ancestors
                inner[status.identity] = path
                collect(in: path, ancestors: inner, into: &files, warn: warn)
            } else if isFlowName, status.isRegularFile {
                files.append(path)
            }
        }
    }
}

/// `--filter REGEX`: keeps the flows whose relative path the regex matches (anywhere).
public struct FlowPathFilter: Sendable {
    /// The pattern.
    public let pattern: String
    private let expression: NSRegularExpression

    /// Compiles the filter.
    public init(_ pattern: String) throws(FlowDiscoveryError) {
        do {
            expression = try NSRegularExpression(pattern: pattern)
        } catch {
            throw .invalidFilter(pattern: pattern)
        }
        self.pattern = pattern
    }

    /// Whether `relativePath` is kept.
    public func matches(_ relativePath: String) -> Bool {
        expression.firstMatch(in: relativePath, range: NSRange(relativePath.startIndex..., in: relativePath)) != nil
    }
}
