import Foundation
import Testing
import TestSupport

/// docs/ARCHITECTURE.md's worked example of adding a step quotes the source of `expect-gone`:
/// each quoted line is in the step module's `FlowCommand.swift` or, after it, the flow module's
/// keyword table (`FlowKeyword+Table.swift`), in order, so the example cannot drift from the code. The quote's own annotations (`// FlowCommand.written`) and elisions (`, ...`) are the
/// only lines it may add.
@Suite struct ArchitectureDocsTests {
    @Test func addingACommandQuotesTheSource() throws {
        let docs = try DocumentedExamples.read("docs/ARCHITECTURE.md", fromTestFile: #filePath)
        let blocks = DocumentedExamples.blocks(in: docs, document: "docs/ARCHITECTURE.md", language: "swift", section: "Adding a step")
        #expect(blocks.count == 1)
        let source = try DocumentedExamples.read("Harness/HarnessSteps/Steps/FlowCommand.swift", fromTestFile: #filePath) + "\n"
            + DocumentedExamples.read("Harness/HarnessFlows/Flows/Script/FlowKeyword+Table.swift", fromTestFile: #filePath)
        for block in blocks {
            // An annotation is dropped; an elided line (`, ...`) is compared by its start: it stands
            // for the source line it begins.
            let sourceLines = source.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            let lines = block.lines.map { line -> String in
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("//") { return "" }
                guard trimmed.hasSuffix(", ...") else { return line }
                let start = String(trimmed.dropLast(4))
                return sourceLines.first { $0.hasPrefix(start) } ?? line
            }
            let quoted = DocumentedExample(document: block.document, line: block.line, heading: block.heading, lines: lines)
            #expect(DocumentedExamples.verifyMirrored(quoted, in: source, sourceName: "FlowCommand.swift + FlowKeyword+Table.swift") == nil)
        }
    }
}
