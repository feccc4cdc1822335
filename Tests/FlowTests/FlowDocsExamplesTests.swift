import Foundation
import Testing
import Harness
@testable import HarnessFlows
@testable import HarnessSteps

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

    /// The commands of a flow's lines: comment lines, trailing comments and blank lines dropped.
    static func commands(_ text: String) -> [String] {
        text.split(separator: "\n").map { String($0) }.filter { !$0.hasPrefix("#") }
            .map { $0.replacingOccurrences(of: #"\s{2,}#.*$"#, with: "", options: .regularExpression) }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    static let root = document.deletingLastPathComponent().deletingLastPathComponent()

    /// The bundled file an example says it shows whole (`# Tests/Flows/X.flow (the whole flow...`
    /// or `# Tests/Flows/X.setup (the whole file...` on its first line), relative to the package.
    static func wholeBundledFile(shownBy example: String) -> String? {
        guard let first = example.split(separator: "\n").first, first.hasPrefix("# Tests/Flows/"),
              first.contains("(the whole flow") || first.contains("(the whole file"),
              let path = first.dropFirst(2).split(separator: " ").first else { return nil }
        return String(path)
    }

    /// An example that says it is a whole bundled flow (or a file flows include) shows its
    /// commands, so the docs cannot drift from what runs.
    @Test func examplesNamingABundledFlowMirrorIt() throws {
        let root = Self.root
        var mirrored = 0
        for example in try Self.examples() {
            guard let path = Self.wholeBundledFile(shownBy: example) else { continue }
            let file = try String(contentsOf: root.appendingPathComponent(String(path)), encoding: .utf8)
            #expect(Self.commands(example) == Self.commands(file), "docs/FLOWS.md's example of \(path)")
            mirrored += 1
        }
        #expect(mirrored >= 1)
    }

    @Test func everyExampleParses() throws {
        let examples = try Self.examples()
        #expect(examples.count >= 4)
        for example in examples {
            // A whole bundled file is the file (mirrored above): loaded where it is, so that its
            // `include` lines and files resolve; an included file is checked by the flows including it.
            if let path = Self.wholeBundledFile(shownBy: example) {
                if path.hasSuffix(".flow") {
                    do {
                        _ = try FlowParser.load(path: Self.root.appendingPathComponent(path).path)
                    } catch {
                        Issue.record("docs/FLOWS.md's \(path) does not load:\n\(error)")
                    }
                }
                continue
            }
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
