import Foundation
import Harness
@testable import HarnessFlows

/// Parses a flow made of `app` + `setup` lines + `launch` + `after` lines, in folder `/flows`.
func parseFlow(setup: [String] = [], after: [String] = []) throws -> FlowScript {
    let source = (["app ./todo"] + setup + ["launch"] + after).joined(separator: "\n")
    return try FlowParser.parse(source, file: "t.flow", directory: "/flows")
}

/// The errors of `source` as `line:column: message` strings (empty when it parses).
func parseErrors(_ source: String, file: String = "t.flow") -> [String] {
    do {
        _ = try FlowParser.parse(source, file: file, directory: "/flows")
        return []
    } catch {
        return error.errors.map { "\($0.position.line):\($0.position.column): \($0.message)" }
    }
}

/// A fresh temporary folder, removed by the returned cleanup.
func makeTemporaryFolder() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("flowtests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Writes `text` to `folder/relative`, creating folders.
func writeFile(_ text: String, at relative: String, in folder: String) throws {
    let path = folder + "/" + relative
    try FileManager.default.createDirectory(atPath: FlowPaths.directory(of: path), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
}

func flowFile(_ relative: String) -> FlowFile {
    FlowFile(path: "/root/" + relative, relativePath: relative)
}
