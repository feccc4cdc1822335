/// The `swift test --filter` patterns that select exactly a list of tests, as `swift test list`
/// names them (`Module.Suite/test()`, `Module.Class/testMethod`).
///
/// SwiftPM and Swift Testing select a test when a `--filter` regular expression matches
/// anywhere in its name, so a bare name would also select every test it is a prefix of
/// (`Suite/test` selects `Suite/testTwo`). Each name is therefore escaped and anchored:
/// `^(A|B)(/|$)`. The `(/|$)` ending is needed because Swift Testing matches against its own
/// identifier, which continues after the function with its source location
/// (`Module.Suite/test()/File.swift:12:6`); XCTest's names end there. The groups are plain
/// capturing ones so that the pattern means the same in Swift's `Regex`, ICU and POSIX ERE.
///
/// Many tests give long patterns, and a command line has limits (on Linux one argument may not
/// exceed 128 KiB): the names are split into patterns of at most ``maximumPatternBytes`` each,
/// and those into runs of at most ``maximumRunBytes`` of patterns together.
///
/// ```swift
/// let runs = SwiftTestFilter.runs(selecting: ["Tests.Suite/a()", "Tests.Suite/b(_:)"])
/// // [["^(Tests\\.Suite/a\\(\\)|Tests\\.Suite/b\\(_:\\))(/|$)"]]: one run, one --filter
/// ```
package enum SwiftTestFilter {
    /// The longest pattern given to one `--filter` (a quarter of Linux's limit for one argument).
    package static let maximumPatternBytes = 32 * 1024
    /// The most pattern bytes given to one `swift test` run (far under the usual 2 MiB for the
    /// whole command line and environment); more tests take several runs.
    package static let maximumRunBytes = 256 * 1024

    /// The characters that mean something in a regular expression, escaped with a backslash.
    static let metacharacters: Set<Character> = ["\\", "^", "$", ".", "|", "?", "*", "+", "(", ")", "[", "]", "{", "}"]

    /// `text` with every regular-expression metacharacter escaped, so it matches itself.
    package static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for character in text {
            if metacharacters.contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }

    /// One pattern selecting exactly `identifiers` (none: a pattern that selects nothing is not
    /// wanted, so `identifiers` must not be empty).
    package static func pattern(selecting identifiers: [String]) -> String {
        "^(" + identifiers.map(escaped).joined(separator: "|") + ")(/|$)"
    }

    /// The `--filter` values of each `swift test` run needed to run exactly `identifiers`:
    /// every name in exactly one pattern, patterns within ``maximumPatternBytes`` (a single name
    /// longer than that gets a pattern of its own), runs within ``maximumRunBytes``.
    package static func runs(selecting identifiers: [String], maximumPatternBytes: Int = maximumPatternBytes,
                            maximumRunBytes: Int = maximumRunBytes) -> [[String]] {
        var runs: [[String]] = []
        var run: [String] = []
        var runBytes = 0
        func closePattern(_ names: [String]) {
            guard !names.isEmpty else { return }
            let pattern = pattern(selecting: names)
            if !run.isEmpty, runBytes + pattern.utf8.count > maximumRunBytes {
                runs.append(run)
                run = []
                runBytes = 0
            }
            run.append(pattern)
            runBytes += pattern.utf8.count
        }
        var names: [String] = []
        var patternBytes = 0
        let overhead = pattern(selecting: [""]).utf8.count
        for identifier in identifiers {
            let bytes = escaped(identifier).utf8.count + 1
            if !names.isEmpty, overhead + patternBytes + bytes > maximumPatternBytes {
                closePattern(names)
                names = []
                patternBytes = 0
            }
            names.append(identifier)
            patternBytes += bytes
        }
        closePattern(names)
        if !run.isEmpty { runs.append(run) }
        return runs
    }
}
