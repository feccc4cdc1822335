import Foundation
import Testing
import TestSupport
import Harness
@testable import HarnessFlows

/// `include FILE`: shared setup lines, relative to the including file, confined to the flow's
/// folder, with their own file and line in errors, and an error naming a cycle.
@Suite struct FlowIncludeTests {
    /// The errors of loading `flow` from a folder holding `files`, as `file:line:column: message`.
    static func load(_ files: [String: String], flow: String = "flows/t.flow") throws -> (FlowScript?, [String]) {
        try withTemporaryDirectory { folder in
            for (path, text) in files { _ = try writeFile(text, at: path, in: folder.path) }
            do {
                return (try FlowParser.load(path: folder.path + "/" + flow, displayName: flow), [])
            } catch let error as FlowParseErrors {
                return (nil, error.errors.map(\.description))
            }
        }
    }

    @Test func theIncludedSetupLinesAreSplicedInWithTheirOwnPlaces() throws {
        let (script, errors) = try Self.load([
            "flows/common/todo.setup": "app ./todo\nsize 100x30\nenv MODE=fast\nstub GET /todos 200 json todos.json\n",
            "flows/common/todos.json": "[]",
            "flows/t.flow": "include common/todo.setup\nenv EXTRA=1\nlaunch\nexpect \"Todos\"\n",
        ])
        #expect(errors == [])
        let flow = try #require(script)
        #expect(flow.app?.written == "./todo")
        #expect(flow.app?.flowDirectory.hasSuffix("/flows/common") == true)
        #expect(flow.initialSize == TerminalSize(cols: 100, rows: 30))
        #expect(flow.environment.map(\.name) == ["MODE", "EXTRA"])
        let stub = try #require(flow.stubs.first)
        #expect(stub.path == "/todos")
        #expect(flow.steps.first?.position == SourcePosition(file: "flows/common/todo.setup", line: 1, column: 1))
        #expect(flow.steps.last?.position == SourcePosition(file: "flows/t.flow", line: 4, column: 1))
    }

    @Test func aMistakeInAnIncludedFileIsReportedAtItsOwnLine() throws {
        let (_, errors) = try Self.load([
            "flows/common.setup": "app ./todo\nsize 80y24\n",
            "flows/t.flow": "include common.setup\nlaunch\n",
        ])
        #expect(errors.first?.hasPrefix("flows/common.setup:2:6: invalid size \"80y24\"") == true, "\(errors)")
    }

    @Test func aCycleIsAnErrorNamingIt() throws {
        let (_, errors) = try Self.load([
            "flows/a.setup": "include b.setup\n",
            "flows/b.setup": "include a.setup\n",
            "flows/t.flow": "app ./todo\ninclude a.setup\nlaunch\n",
        ])
        #expect(errors == ["flows/b.setup:1:1: include cycle: flows/a.setup → flows/b.setup → flows/a.setup"])
        let (_, own) = try Self.load(["flows/t.flow": "app ./todo\ninclude t.flow\nlaunch\n"])
        #expect(own == ["flows/t.flow:2:1: include cycle: flows/t.flow → flows/t.flow"])
    }

    @Test func anIncludedFileHoldsSetupLinesOnly() throws {
        let (_, errors) = try Self.load([
            "flows/common.setup": "app ./todo\nlaunch\n",
            "flows/t.flow": "include common.setup\nlaunch\n",
        ])
        #expect(errors.contains { $0.hasPrefix(#"flows/common.setup:2:1: include "common.setup": launch is not a setup line"#) }, "\(errors)")
    }

    /// A flow is untrusted input: an include cannot read a file outside the flow's folder, by
    /// `..`, by an absolute path or through a link.
    @Test(arguments: ["../outside.setup", "/etc/passwd", "link/outside.setup"])
    func anIncludeCannotLeaveTheFlowsFolder(_ path: String) throws {
        let errors = try withTemporaryDirectory { folder -> [String] in
            _ = try writeFile("app ./todo\n", at: "outside.setup", in: folder.path)
            _ = try writeFile("app ./todo\ninclude \(path)\nlaunch\n", at: "flows/t.flow", in: folder.path)
            try FileManager.default.createSymbolicLink(atPath: folder.path + "/flows/link", withDestinationPath: folder.path)
            do {
                _ = try FlowParser.load(path: folder.path + "/flows/t.flow", displayName: "t.flow")
                return []
            } catch let error as FlowParseErrors {
                return error.errors.map(\.description)
            }
        }
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.hasPrefix(#"t.flow:2:1: include "\#(path)": "#) == true, "\(errors)")
        #expect(errors.first.map { $0.contains("folder") || $0.contains("absolute") } == true, "\(errors)")
    }
}
