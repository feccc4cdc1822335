import Foundation

/// Loads and validates mapping files (format: docs/STUBS.md).
///
/// ```json
/// {"mappings": [{"request": {"method": "GET", "path": "/todos"},
///                "response": {"status": 200, "bodyFile": "todos.json"}}]}
/// ```
public enum StubMappingFile {
    /// Reads, validates and converts `url`. `bodyFile` paths are relative to `filesDirectory`
    /// (by default the file's folder) and must stay inside it (`StubBodyFile`).
    /// - Throws: `StubMappingError` naming the file, the JSON path and the problem.
    public static func load(_ url: URL, filesDirectory: URL? = nil) throws -> [StubMapping] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw StubMappingError(source: url.path, issues: [.init(path: "$", problem: "cannot read the file: \(error.localizedDescription)")])
        }
        return try parse(data, source: url.path, filesDirectory: filesDirectory ?? url.deletingLastPathComponent())
    }

    /// Validates and converts mapping-file JSON (`{"mappings": [...]}`). `bodyFile` paths are
    /// relative to `filesDirectory` and must stay inside it; with nil, `bodyFile` is refused.
    public static func parse(_ data: Data, source: String, filesDirectory: URL?) throws -> [StubMapping] {
        let json = try parseJSON(data, source: source)
        var reader = MappingReader(filesDirectory: filesDirectory)
        let mappings = reader.readFile(json)
        if !reader.issues.isEmpty { throw StubMappingError(source: source, issues: reader.issues) }
        return mappings
    }

    /// Validates and converts one mapping object, or `{"mappings": [...]}` (admin API).
    static func parseAdminMappings(_ data: Data, filesDirectory: URL?) throws -> [StubMapping] {
        let source = "admin request"
        let json = try parseJSON(data, source: source)
        var reader = MappingReader(filesDirectory: filesDirectory)
        let mappings: [StubMapping]
        if case .object(let object) = json, object["mappings"] != nil {
            mappings = reader.readFile(json)
        } else {
            mappings = reader.readMapping(json, path: "$").map { [$0] } ?? []
        }
        if !reader.issues.isEmpty { throw StubMappingError(source: source, issues: reader.issues) }
        return mappings
    }

    private static func parseJSON(_ data: Data, source: String) throws -> JSONValue {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            let reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            throw StubMappingError(source: source, issues: [.init(path: "$", problem: "not valid JSON: \(reason)")])
        }
        do {
            return try JSONValue(parsing: data)
        } catch {
            throw StubMappingError(source: source, issues: [.init(path: "$", problem: "not valid JSON: \(error)")])
        }
    }
}
