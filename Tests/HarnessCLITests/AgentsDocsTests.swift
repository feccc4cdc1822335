import Foundation
import Harness
import Stubs
import TestSupport
import Testing

/// docs/AGENTS.md's and the README's examples, run for real: the registration snippet is the
/// server's command line, the piped session saves the flow the document shows, and that flow
/// passes under `harness run`; `harness mcp --help` names every tool.
@Suite struct AgentsDocsTests {
    static func blocks(_ document: String, _ language: String, section: String? = nil) throws -> [DocumentedExample] {
        let text = try DocumentedExamples.read(document, fromTestFile: #filePath)
        return DocumentedExamples.blocks(in: text, document: document, language: language, section: section)
    }

    @Test(arguments: [("docs/AGENTS.md", "Register the server with a client"), ("README.md", "Agents drive it too: `harness mcp`")])
    func theRegistrationSnippetRunsTheServer(_ document: String, _ section: String) throws {
        let block = try #require(try Self.blocks(document, "json", section: section).first, "no json block in \(document)")
        let server = try #require(try JSONValue(parsing: block.text).member("mcpServers")?.member("harness"), "\(block)")
        #expect(server.member("command") == .string("harness"))
        #expect(server.member("args")?.elements?.first == .string("mcp"))
    }

    @Test(.enabled(if: isInstalled("bc")))
    func thePipedSessionSavesTheFlowShownAndItPasses() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let script = try #require(try Self.blocks("docs/AGENTS.md", "sh", section: "What `save_flow` writes").first)
        let shown = try #require(try Self.blocks("docs/AGENTS.md", "flow").first)
        var environment = testEnvironment
        environment["PATH"] = BuildProducts.directory.path + ":" + (environment["PATH"] ?? "")
        environment["HARNESS_RECORD"] = "never"
        let run = try await runProgram("/bin/sh", ["-c", script.text], environment: environment, workingDirectory: folder.path)
        #expect(run.status == 0, "\(script): \(run.stdout)\(run.stderr)")
        #expect(run.lastLine == "1 passed, 0 failed", "\(run.stdout)")
        let saved = try String(contentsOfFile: folder.path + "/bc.flow", encoding: .utf8)
        #expect(saved == shown.text, "\(shown) differs from what save_flow wrote")
        let answers = try String(contentsOfFile: folder.path + "/answers.jsonl", encoding: .utf8)
        #expect(answers.split(separator: "\n").count == 5)
        #expect(!answers.contains(#""isError":true"#), "\(answers)")
    }

    @Test func theHelpDescribesEveryTool() async throws {
        let help = try await runProduct("harness", ["mcp", "--help"])
        #expect(help.status == 0)
        for tool in ["launch", "type", "press", "click", "scroll", "hover", "resize", "wait_for", "screen", "output",
                     "snapshot", "requests", "call", "spy", "save_flow", "close"] {
            #expect(help.stdout.contains("\n  \(tool)\n"), "harness mcp --help does not describe \(tool)")
        }
        let document = try DocumentedExamples.read("docs/AGENTS.md", fromTestFile: #filePath)
        for tool in ["launch", "wait_for", "save_flow", "close"] { #expect(document.contains("| `\(tool)` |")) }
    }

    /// The client test's commands on the page are the ones CI runs.
    @Test func theClientTestCommandsAreCIs() throws {
        let block = try #require(try Self.blocks("docs/AGENTS.md", "sh", section: "How it is tested").first)
        let ci = try DocumentedExamples.read(".ci/run", fromTestFile: #filePath)
        #expect(ci.contains(block.lines[1]), "\(block) is not what .ci/run runs")
        #expect(ci.contains(#""mcp==2.3.0""#) && block.lines[0].hasSuffix("pip install mcp==2.3.0"))
    }
}
