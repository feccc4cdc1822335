import Foundation
import Harness
@testable import HarnessFlows
@testable import HarnessSteps

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

func flowFile(_ relative: String) -> FlowFile {
    FlowFile(path: "/root/" + relative, relativePath: relative)
}
