import Foundation
import HarnessCore

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

/// Finds the `.flow` files to run.
///
/// Folders are searched recursively (hidden files and folders skipped, symbolic links to
/// folders not followed); files named explicitly are taken whatever their extension. Each flow
/// gets a relative path: relative to `root` when under it, else the given path's last folder
/// name plus the path inside it. The result has no duplicates and is sorted by relative path.
///
/// ```swift
/// let flows = try FlowDiscovery.discover(["Tests/Flows"], filter: "login")
/// ```
public enum FlowDiscovery {
    /// The flows under `paths`, optionally kept only when `filter` (a regex) matches their
    /// relative path.
    public static func discover(
        _ paths: [String],
        root: String = FileManager.default.currentDirectoryPath,
        filter: String? = nil
    ) throws(FlowDiscoveryError) -> [FlowFile] {
        let matcher: FlowPathFilter?
        do {
            matcher = try filter.map { pattern throws(FlowDiscoveryError) in try FlowPathFilter(pattern) }
        }
        let fileManager = FileManager.default
        var found: [String: FlowFile] = [:]
        for given in paths {
            let absolute = FlowPaths.join(root, given)
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: absolute, isDirectory: &isDirectory) else {
                throw .pathNotFound(given)
            }
            let fallbackBase = isDirectory.boolValue
                ? FlowPaths.normalize(given).split(separator: "/").last.map(String.init) ?? "."
                : ""
            func add(_ file: String) {
                let relative = FlowPaths.relative(file, to: root)
                    ?? (isDirectory.boolValue
                        ? FlowPaths.join(fallbackBase, FlowPaths.relative(file, to: absolute) ?? file)
                        : (file.split(separator: "/").last.map(String.init) ?? file))
                found[file] = FlowFile(path: file, relativePath: relative)
            }
            if isDirectory.boolValue {
                for file in flowFiles(under: absolute) { add(file) }
            } else {
                add(absolute)
            }
        }
        var flows = Array(found.values)
        if let matcher { flows = flows.filter { matcher.matches($0.relativePath) } }
        return flows.sorted()
    }

    /// Every `*.flow` file under `directory`, recursively, as absolute paths.
    private static func flowFiles(under directory: String) -> [String] {
        let url = URL(fileURLWithPath: directory, isDirectory: true)
        guard let enumerator = FileManager.default.enumerator(
            at: url,
            includingPropertiesForKeys: [.isRegularFileKey],
            options: [.skipsHiddenFiles]
        ) else { return [] }
        var files: [String] = []
        for case let item as URL in enumerator where item.pathExtension == "flow" {
            let isFile = (try? item.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) ?? false
            if isFile { files.append(FlowPaths.normalize(item.path)) }
        }
        return files
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
