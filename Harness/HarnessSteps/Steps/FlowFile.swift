/// A flow file found by ``FlowDiscovery``: where it is, and the stable relative path that
/// names it in reports, filters and shards.
public struct FlowFile: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The absolute path.
    public var path: String
    /// The path relative to the run root (`Tests/Flows/login.flow`), `/`-separated.
    public var relativePath: String
    /// The matrix case this run of the file is (``FlowMatrix``), nil outside a matrix.
    public var matrixCase: FlowMatrixCase?
    /// Which of `harness run --repeat-each N`'s runs this is (1 for the first, and without it).
    public var repetition = 1

    /// Creates a flow file.
    public init(path: String, relativePath: String) {
        self.path = path
        self.relativePath = relativePath
    }

    /// The name of this run of the file in results, reports, shards and the history: the
    /// relative path, then the matrix case (`todo.flow[40x12,light,nocolor]`) and the
    /// repetition after the first (`todo.flow (repeat 2)`).
    public var caseName: String { decorated(relativePath) }

    /// `name` with the matrix case and the repetition.
    public func decorated(_ name: String) -> String {
        let named = matrixCase.map { $0.naming(name) } ?? name
        return repetition > 1 ? "\(named) (repeat \(repetition))" : named
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

    /// Ordered by case name.
    public static func < (lhs: FlowFile, rhs: FlowFile) -> Bool { lhs.caseName < rhs.caseName }

    /// The case name (``caseName``).
    public var description: String { caseName }
}
