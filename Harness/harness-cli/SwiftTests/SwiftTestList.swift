import Foundation
import HarnessFlows

/// The tests of a package as `swift test list` prints them, one name a line
/// (`Module.Suite/test()` for Swift Testing, `Module.Class/testMethod` for XCTest), narrowed by
/// the user's `--filter` and `--skip` the way `swift test` applies them.
///
/// ```swift
/// let names = SwiftTestList.identifiers(in: listOutput)
/// let mine = try SwiftTestList.select(names, filters: ["TodoAcceptanceTests"], skips: [])
/// ```
package enum SwiftTestList {
    /// The test names in `output`: lines that begin with a module name and a dot (a build's
    /// progress lines, such as `Building for debugging...` or `[3/9] Compiling`, do not), each
    /// once, sorted.
    package static func identifiers(in output: String) -> [String] {
        var names: Set<String> = []
        for line in output.split(whereSeparator: \.isNewline) {
            let name = line.trimmingCharacters(in: .whitespaces)
            guard let dot = name.firstIndex(of: "."), dot != name.startIndex, name.index(after: dot) != name.endIndex else {
                continue
            }
            let module = name[..<dot]
            guard let first = module.first, first == "_" || first.isLetter,
                  module.allSatisfy({ $0 == "_" || $0.isLetter || $0.isNumber }) else { continue }
            names.insert(name)
        }
        return names.sorted()
    }

    /// The names that match one of `filters` (all when there is none) and none of `skips`, as
    /// `swift test --filter/--skip` select: a regular expression found anywhere in the name.
    /// - Throws: ``SwiftTestListError/invalidPattern(option:pattern:reason:)`` naming a pattern that does not compile.
    package static func select(_ identifiers: [String], filters: [String], skips: [String]) throws(SwiftTestListError) -> [String] {
        let included = try filters.map { pattern throws(SwiftTestListError) in try compile(pattern, option: "--filter") }
        let excluded = try skips.map { pattern throws(SwiftTestListError) in try compile(pattern, option: "--skip") }
        return identifiers.filter { name in
            (included.isEmpty || included.contains { name.contains($0) }) && !excluded.contains { name.contains($0) }
        }
    }

    private static func compile(_ pattern: String, option: String) throws(SwiftTestListError) -> Regex<AnyRegexOutput> {
        do {
            return try Regex(pattern)
        } catch {
            throw .invalidPattern(option: option, pattern: pattern, reason: "\(error)")
        }
    }
}

/// A `--filter` or `--skip` that is not a regular expression.
package enum SwiftTestListError: Error, Equatable, CustomStringConvertible {
    /// The option, its pattern and what the regular-expression parser said.
    case invalidPattern(option: String, pattern: String, reason: String)

    /// A message for the user.
    package var description: String {
        switch self {
        case .invalidPattern(let option, let pattern, let reason):
            "\(option) \(pattern.debugDescription): not a regular expression (\(reason))"
        }
    }
}
