import Foundation
import Testing
import TestSupport

/// docs/SECURITY.md names the test that checks each promise. Every suite and test it names must
/// exist under Tests/, so a renamed or deleted test cannot leave a promise that nothing checks.
@Suite struct SecurityDocsTests {
    @Test func everyTestTheSecurityPageNamesExists() throws {
        let page = try DocumentedExamples.read("docs/SECURITY.md", fromTestFile: #filePath)
        let sources = try Self.testSources()
        let references = Self.references(in: page)
        #expect(references.count > 40, "the page names \(references.count) tests")
        var suite = ""
        for reference in references {
            // `Suite.test`, `Suite/test`, `Suite`, or `.test` (a test of the suite named before it).
            if let name = reference.suite {
                suite = name
                let declared = ["struct \(name) ", "struct \(name):", "extension \(name) "].contains { sources.contains($0) }
                #expect(declared, "docs/SECURITY.md names the suite \(name), which is not in Tests/")
            }
            if let test = reference.test {
                let declared = sources.contains("func \(test)(")
                #expect(declared, "docs/SECURITY.md names \(suite).\(test), which is not in Tests/")
            }
        }
    }

    /// The backquoted test names of `page`, in order: a suite name ends in `Tests`; a test name
    /// follows it after `.` or `/`, or stands alone after a `.` (a test of the last suite named).
    static func references(in page: String) -> [(suite: String?, test: String?)] {
        let pattern = try! NSRegularExpression(pattern: #"`(?:([A-Z][A-Za-z0-9]*Tests)(?:[./]([a-z][A-Za-z0-9]*))?|\.([a-z][A-Za-z0-9]*))`"#)
        let text = page as NSString
        return pattern.matches(in: page, range: NSRange(location: 0, length: text.length)).compactMap { match in
            func group(_ index: Int) -> String? {
                let range = match.range(at: index)
                return range.location == NSNotFound ? nil : text.substring(with: range)
            }
            if let suite = group(1) { return (suite, group(2)) }
            let test = group(3)!
            // `.svg` and `.reportProgress` are a file extension and an option, not tests: a test
            // name standing alone follows a suite in the same table cell or sentence.
            return ["svg", "reportProgress"].contains(test) ? nil : (nil, test)
        }
    }

    /// Every Swift file under Tests/, joined.
    static func testSources() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        return try files.map { try String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
    }
}
