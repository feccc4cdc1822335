import Foundation
import Testing
@testable import HarnessFlows
@testable import HarnessSteps

/// docs/FLOWS.md's "The same steps in Swift": every keyword of the table has its Swift spelling,
/// and every `.name(` the spellings show is a static member of `AppAction` or `AppExpectation`.
@Suite struct FlowSwiftSpellingTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The rows of the section: keyword, Swift column.
    static func rows() throws -> [(keyword: String, swift: String)] {
        let docs = try String(contentsOf: root.appendingPathComponent("docs/FLOWS.md"), encoding: .utf8)
        guard let start = docs.range(of: "## The same steps in Swift\n") else { return [] }
        let section = docs[start.upperBound...].prefix { _ in true }
        let end = section.range(of: "\n## ").map { section[..<$0.lowerBound] } ?? section
        return end.split(separator: "\n").compactMap { line -> (String, String)? in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 4, cells[1].hasPrefix("`"), cells[1] != "`Keyword`" else { return nil }
            return (cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`")), cells[2])
        }
    }

    @Test func everyKeywordHasItsSwiftSpelling() throws {
        let documented = try Self.rows().map(\.keyword)
        #expect(documented == FlowKeyword.allCases.map(\.rawValue), "docs/FLOWS.md, \"The same steps in Swift\"")
    }

    @Test func everySpellingIsAMemberOfTheSwiftSide() throws {
        let source = try String(contentsOf: Self.root.appendingPathComponent("Harness/Harness/AppStep.swift"), encoding: .utf8)
        var members = Set<String>()
        for match in source.matches(of: /static (?:func|var) (\w+)/) { members.insert(String(match.1)) }
        #expect(members.contains("text") && members.contains("gone"))
        for row in try Self.rows() {
            for match in row.swift.matches(of: /`\.(\w+)/) {
                #expect(members.contains(String(match.1)), "\(row.keyword): .\(match.1) is not a static member in AppStep.swift")
            }
        }
    }
}
