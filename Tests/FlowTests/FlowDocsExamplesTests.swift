import Foundation
import Testing
import Harness
@testable import HarnessFlows

/// Every ```flow example in docs/FLOWS.md parses. A complete flow (one with an `app` line) is
/// parsed as it is; an excerpt is parsed after `app` and `launch` lines. What the examples do
/// when they run is tested by the bundled flows and StreamFlowTests.
@Suite struct FlowDocsExamplesTests {
    static let document = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/FLOWS.md")

    static func examples() throws -> [String] {
        let text = try String(contentsOf: document, encoding: .utf8)
        var blocks: [String] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```flow" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!.joined(separator: "\n") + "\n")
                current = nil
            } else {
                current?.append(String(line))
            }
        }
        return blocks
    }

    @Test func thereAreExamplesOfTheStreamCommands() throws {
        let all = try Self.examples().joined()
        #expect(all.contains("expect-output \">>>\""))
        #expect(all.contains("expect-output-not"))
    }

    @Test func everyExampleParses() throws {
        let examples = try Self.examples()
        #expect(examples.count >= 4)
        for example in examples {
            let complete = example.split(separator: "\n").contains { $0.hasPrefix("app ") }
            let source = complete ? example : "app x\nlaunch\n" + example
            do {
                _ = try FlowParser.parse(source, file: "example.flow", directory: "/tmp")
            } catch {
                Issue.record("docs/FLOWS.md example does not parse:\n\(example)\n\(error)")
            }
        }
    }
}
