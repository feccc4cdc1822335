import Foundation

/// One fenced code block of a Markdown document, with where it is.
public struct DocumentedExample: Sendable, CustomStringConvertible {
    /// The document's name as messages show it (`README.md`).
    public let document: String
    /// The 1-based line of the opening fence.
    public let line: Int
    /// The nearest heading above the block (`### Step flows: ...`), without its `#`s.
    public let heading: String
    /// The block's lines, between the fences, as written.
    public let lines: [String]

    /// A block of `document` whose opening fence is on `line`, under `heading`.
    public init(document: String, line: Int, heading: String, lines: [String]) {
        self.document = document
        self.line = line
        self.heading = heading
        self.lines = lines
    }

    /// The block's text: its lines, each ending with a newline.
    public var text: String { lines.map { $0 + "\n" }.joined() }

    /// `README.md:57 (under "Drive an app and wait on its screen")`.
    public var description: String { "\(document):\(line) (under \"\(heading)\")" }
}

/// Keeps the code examples of the docs and the tests that run them in step: a test holds each
/// example as real code, and ``verifyMirrored(_:in:sourceName:)`` fails when a line of the
/// example is not in that test, so an edit of the docs that the test does not follow is caught.
///
/// ```swift
/// let readme = try DocumentedExamples.read("README.md", fromTestFile: #filePath)
/// for block in DocumentedExamples.blocks(in: readme, document: "README.md", language: "swift") {
///     if let failure = DocumentedExamples.verifyMirrored(block, in: source, sourceName: "ReadmeExamplesTests.swift") {
///         Issue.record(Comment(rawValue: failure))
///     }
/// }
/// ```
public enum DocumentedExamples {
    /// The package's root folder, found from a test file's `#filePath` (the nearest folder above
    /// it holding a `Package.swift`).
    public static func packageRoot(fromTestFile filePath: String) -> URL {
        var folder = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) { return folder }
            folder.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: filePath).deletingLastPathComponent()
    }

    /// The text of `relativePath` (`README.md`, `docs/STUBS.md`) in the package holding `filePath`.
    public static func read(_ relativePath: String, fromTestFile filePath: String) throws -> String {
        try String(contentsOf: packageRoot(fromTestFile: filePath).appendingPathComponent(relativePath), encoding: .utf8)
    }

    /// The fenced blocks of `markdown` whose fence says `language` (`"swift"`; `""` for a bare
    /// fence), in document order. With `section`, only the blocks under the heading of that
    /// title (`"A short tour of the API"`), up to the next heading of the same or a higher level.
    public static func blocks(in markdown: String, document: String, language: String, section: String? = nil) -> [DocumentedExample] {
        var examples: [DocumentedExample] = []
        var heading = ""
        var sectionLevel: Int? = nil   // the level of `section`'s heading while inside it
        var open: (line: Int, language: String, lines: [String])? = nil
        for (index, rawLine) in markdown.components(separatedBy: "\n").enumerated() {
            let line = rawLine.hasSuffix("\r") ? String(rawLine.dropLast()) : rawLine
            if var block = open {
                if line.trimmingCharacters(in: .whitespaces) == "```" {
                    let inSection = section == nil || sectionLevel != nil
                    if block.language == language, inSection {
                        examples.append(DocumentedExample(document: document, line: block.line, heading: heading, lines: block.lines))
                    }
                    open = nil
                } else {
                    block.lines.append(line)
                    open = block
                }
                continue
            }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                open = (index + 1, String(trimmed.dropFirst(3)).trimmingCharacters(in: .whitespaces), [])
            } else if line.hasPrefix("#") {
                let level = line.prefix { $0 == "#" }.count
                let title = line.dropFirst(level).trimmingCharacters(in: .whitespaces)
                heading = title
                if let current = sectionLevel, level <= current { sectionLevel = nil }
                if title == section { sectionLevel = level }
            }
        }
        return examples
    }

    /// Nil when every non-blank line of `example`, with its leading and trailing blanks trimmed,
    /// is a line of `source` (trimmed the same way), in the example's order; otherwise the
    /// failure: which block, the first line not found after the lines before it, and what to do.
    public static func verifyMirrored(_ example: DocumentedExample, in source: String, sourceName: String) -> String? {
        let sourceLines = source.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        var next = 0
        var found = 0
        for (offset, raw) in example.lines.enumerated() {
            let wanted = raw.trimmingCharacters(in: .whitespaces)
            if wanted.isEmpty { continue }
            guard let at = sourceLines[next...].firstIndex(of: wanted) else {
                let position = found == 0 ? "anywhere in it" : "after the block's line before it"
                return """
                    The example at \(example) is not mirrored in \(sourceName): its line \(example.line + 1 + offset)
                        \(wanted)
                    is not found \(position). Change the test so that it runs the example as the docs show it \
                    (or correct the docs), keeping the example's lines in order.
                    """
            }
            found += 1
            next = at + 1
        }
        return nil
    }

    /// Nil when `file`'s text is exactly the block's text; otherwise the first line that differs.
    public static func verifyIdentical(_ example: DocumentedExample, to fileText: String, fileName: String) -> String? {
        guard example.text != fileText else { return nil }
        let fileLines = fileText.components(separatedBy: "\n")
        let blockLines = example.lines + [""]
        let index = zip(blockLines, fileLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(blockLines.count, fileLines.count)
        let shown = { (lines: [String]) in index < lines.count ? lines[index] : "(the end)" }
        return """
            The example at \(example) differs from \(fileName) at the block's line \(index + 1) \
            (the document's line \(example.line + 1 + index)):
              docs: \(shown(blockLines))
              file: \(shown(fileLines))
            Keep the two the same: the file is what the tests run.
            """
    }
}
