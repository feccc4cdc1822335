/// A flow file found by ``FlowDiscovery``: where it is, and the stable relative path that
/// names it in reports, filters and shards.
public struct FlowFile: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The absolute path.
    public var path: String
    /// The path relative to the run root (`Tests/Flows/login.flow`), `/`-separated.
    public var relativePath: String

    /// Creates a flow file.
    public init(path: String, relativePath: String) {
        self.path = path
        self.relativePath = relativePath
    }

    /// The file name without `.flow` (`login`).
    public var name: String {
        let file = relativePath.split(separator: "/").last.map(String.init) ?? relativePath
        return file.hasSuffix(".flow") ? String(file.dropLast(5)) : file
    }

    /// The folder part of ``relativePath`` (`Tests/Flows`), empty at the root.
    public var folder: String {
        guard let slash = relativePath.lastIndex(of: "/") else { return "" }
        return String(relativePath[..<slash])
    }

    /// The folder ``relativePath`` is relative to (the run's root), when ``path`` ends with it;
    /// nil otherwise.
    package var runFolder: String? {
        guard !relativePath.isEmpty, !relativePath.hasPrefix("/"), path.hasSuffix("/" + relativePath) else { return nil }
        let folder = String(path.dropLast(relativePath.count + 1))
        return folder.isEmpty ? "/" : folder
    }

    /// Ordered by relative path.
    public static func < (lhs: FlowFile, rhs: FlowFile) -> Bool { lhs.relativePath < rhs.relativePath }

    /// The relative path.
    public var description: String { relativePath }
}
