import Foundation
import TestSupport
import Testing
import Harness
@testable import HarnessFlows
@testable import HarnessSteps
@testable import harness

/// `harness swift-test`: shards of a Swift package's tests, run through a fake `swift`
/// (``FakeSwift``), so nothing here nests a real `swift test`.
@Suite struct SwiftTestShardTests {
    /// Names as `swift test list` prints them, with characters that mean something in a
    /// regular expression, names that are prefixes of others, XCTest names and a free function.
    static let trickyNames = [
        "FakeTests.Suite/sum(of:and:)",
        "FakeTests.Suite/`with [brackets] and $dollar`()",
        "FakeTests.Suite/`a.b*c+d?`()",
        "FakeTests.Suite/`x|y`()",
        "FakeTests.Suite/`caret^ {1,2}`()",
        "FakeTests.Suite/`back\\slash`()",
        "FakeTests.Suite/Nested/inner()",
        "FakeTests.Suite/test()",
        "FakeTests.SuiteTwo/test()",
        "FakeTests.freeFunction()",
        "FakeTests.XCSuite/testThing",
        "FakeTests.XCSuite/testThingTwo",
    ]

    // MARK: - The filter

    @Test(arguments: trickyNames)
    func aPatternSelectsItsTestAndNoOther(name: String) throws {
        let regex = try Regex(SwiftTestFilter.pattern(selecting: [name]))
        // SwiftPM matches XCTest names as listed; Swift Testing adds the source location.
        #expect(name.contains(regex))
        #expect("\(name)/Fake.swift:12:6".contains(regex))
        for other in Self.trickyNames where other != name {
            #expect(!other.contains(regex), "\(name) also selects \(other)")
            #expect(!"\(other)/Fake.swift:12:6".contains(regex), "\(name) also selects \(other)")
        }
        #expect(!(name + "Two").contains(regex))
        #expect(!("X" + name).contains(regex))
        #expect(!name.replacingOccurrences(of: ".", with: "X").contains(regex), "a dot must match only a dot")
    }

    @Test(arguments: [40, 64, 200, 100_000])
    func longSelectionsAreSplitWithinTheLimitsAndEachNameOnce(limit: Int) throws {
        let names = (0..<300).map { "FakeTests.Suite\($0 % 7)/test\($0)()" }
        let runs = SwiftTestFilter.runs(selecting: names, maximumPatternBytes: limit, maximumRunBytes: limit * 3)
        let patterns = runs.flatMap { $0 }
        for pattern in patterns where pattern.utf8.count > limit {
            // Only a single name longer than the limit may pass it, alone in its pattern.
            let regex = try Regex(pattern)
            #expect(names.filter { $0.contains(regex) }.count == 1)
        }
        for run in runs where run.count > 1 {
            #expect(run.reduce(0) { $0 + $1.utf8.count } <= limit * 3)
        }
        let regexes = try patterns.map { try Regex($0) }
        for name in names {
            #expect(regexes.filter { name.contains($0) }.count == 1, "\(name)")
        }
    }

    @Test func listingKeepsTestNamesAndDropsBuildLines() {
        let output = """
            Building for debugging...
            [3/9] Compiling Lib Lib.swift
            Build complete! (1.20s)
            FakeTests.Suite/b()
            FakeTests.Suite/`raw name with spaces`()
            FakeTests.Suite/b()
            FakeTests.XCSuite/testA
            """
        #expect(SwiftTestList.identifiers(in: output)
                == ["FakeTests.Suite/`raw name with spaces`()", "FakeTests.Suite/b()", "FakeTests.XCSuite/testA"])
    }

    @Test func theArgumentsAfterTheSeparatorAreSorted() throws {
        let arguments = try SwiftTestArguments(["--skip-build", "--filter", "A", "--skip=B", "--parallel", "--num-workers", "2",
                                                "--scratch-path", "s"])
        #expect(arguments.filters == ["A"])
        #expect(arguments.skips == ["B"])
        #expect(arguments.forListing == ["--skip-build", "--scratch-path", "s"])
        #expect(arguments.forRunning == ["--skip-build", "--parallel", "--num-workers", "2", "--scratch-path", "s"])
        #expect(throws: SwiftTestArgumentsError.reserved("--xunit-output")) { try SwiftTestArguments(["--xunit-output", "x"]) }
        #expect(throws: SwiftTestArgumentsError.missingValue("--filter")) { try SwiftTestArguments(["--filter"]) }
    }

    // MARK: - Shards through the command

    /// 24 tests of skewed durations (a few long ones), with tricky names among them.
    static let suite: [String: Double] = {
        var durations: [String: Double] = [:]
        for (index, name) in trickyNames.enumerated() { durations[name] = Double(index % 4) + 0.5 }
        for index in 0..<12 { durations["FakeTests.Slow/case\(index)()"] = index < 3 ? 30 + Double(index) : Double(index) }
        return durations
    }()

    /// A JUnit file of earlier durations, as `swift test`'s own xUnit names cases.
    static func durationsFile(in folder: TemporaryDirectory) throws -> String {
        let cases = suite.sorted { $0.key < $1.key }.map { name, seconds -> String in
            var (type, test) = ("FakeTests", String(name.dropFirst("FakeTests.".count)))
            if let slash = name.lastIndex(of: "/") {
                type = String(name[..<slash]).replacingOccurrences(of: "/", with: ".")
                test = String(name[name.index(after: slash)...])
            }
            func xml(_ text: String) -> String { text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;") }
            return "<testcase classname=\"\(xml(type))\" name=\"\(xml(test))\" time=\"\(seconds)\"/>"
        }
        return try folder.write("<testsuites><testsuite name=\"x\">\(cases.joined())</testsuite></testsuites>\n", at: "durations.xml")
    }

    @Test func threeShardsRunEveryTestExactlyOnceAndBalanced() async throws {
        let fake = try FakeSwift(tests: Array(Self.suite.keys))
        defer { fake.remove() }
        let durations = try Self.durationsFile(in: fake.folder)
        var seen: [String: Int] = [:]
        var loads: [Double] = []
        for index in 1...3 {
            let before = try fake.ran().count
            let output = try await runHarness(
                ["swift-test", "--swift", fake.executable, "--package-path", fake.package, "--shard", "\(index)/3",
                 "--durations", durations, "--artifacts", "shard-\(index)"], in: fake.folder.path)
            #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
            let ran = try fake.ran().dropFirst(before)
            loads.append(ran.reduce(0) { $0 + (Self.suite[$1] ?? 0) })
            for name in ran { seen[name, default: 0] += 1 }
            let report = try RunReportWriter.read(folder: fake.folder.path + "/shard-\(index)")
            #expect(Set(report.flows.map(\.path)) == Set(ran), "the report lists what ran")
        }
        #expect(seen.keys.sorted() == Self.suite.keys.sorted(), "every test ran")
        #expect(seen.values.allSatisfy { $0 == 1 }, "no test ran twice: \(seen.filter { $0.value > 1 })")
        // Longest first into the lightest shard: the shards differ by at most the longest test.
        let longest = Self.suite.values.max()!
        #expect(loads.max()! - loads.min()! <= longest, "loads \(loads)")
        #expect(loads.max()! / (loads.reduce(0, +) / 3) < 1.15, "loads \(loads)")
    }

    @Test func specialNamesRunThroughTheAnchoredFilterAndXCTestGetsItsXUnitFile() async throws {
        let fake = try FakeSwift(tests: Self.trickyNames)
        defer { fake.remove() }
        let output = try await runHarness(
            ["swift-test", "--swift", fake.executable, "--package-path", fake.package, "--artifacts", "out", "--junit", "out/junit.xml"],
            in: fake.folder.path)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(try fake.ran().sorted() == Self.trickyNames.sorted())
        let report = try RunReportWriter.read(folder: fake.folder.path + "/out")
        #expect(report.flows.map(\.path) == Self.trickyNames.sorted())
        #expect(report.flows.allSatisfy { $0.status == .passed }, "\(report.flows.filter { $0.status != .passed }.map(\.path))")
        #expect(try JUnitReader.read(path: fake.folder.path + "/out/junit.xml").tests == Self.trickyNames.count)
        // The tests' artifacts folder is the shard's.
        let calls = try fake.calls()
        #expect(!calls.isEmpty && calls.allSatisfy { $0.hasSuffix(" " + fake.folder.path + "/out") }, "\(calls)")
    }

    /// Under Bazel, as `harness run` (BazelProtocolTests): Bazel's shard taken and confirmed, the
    /// JUnit in `XML_OUTPUT_FILE`, the report in `TEST_UNDECLARED_OUTPUTS_DIR`, `TEST_TMPDIR`
    /// the tests' `TMPDIR`.
    @Test func underBazelTheShardIsConfirmedAndEveryFileGoesWhereBazelSays() async throws {
        let fake = try FakeSwift(tests: Self.suite.keys.sorted())
        defer { fake.remove() }
        let bazel = fake.folder.path + "/bazel"
        for folder in ["outputs", "tmp"] {
            try FileManager.default.createDirectory(atPath: bazel + "/" + folder, withIntermediateDirectories: true)
        }
        let environment = [
            "TEST_TARGET": "//swift:suite", "TEST_TMPDIR": bazel + "/tmp", "TEST_UNDECLARED_OUTPUTS_DIR": bazel + "/outputs",
            "XML_OUTPUT_FILE": bazel + "/test.xml", "TEST_SHARD_STATUS_FILE": bazel + "/test.shard",
            "TEST_SHARD_INDEX": "1", "TEST_TOTAL_SHARDS": "2",
        ]
        let output = try await runHarness(
            ["swift-test", "--swift", fake.executable, "--package-path", fake.package, "--shard", "auto"], in: fake.folder.path,
            environment: environment, removing: BazelProtocolTests.shardVariables + ["TMPDIR", "HARNESS_ARTIFACTS"])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains(", shard 2/2"), "\(output.stdout)")
        #expect(FileManager.default.fileExists(atPath: bazel + "/test.shard"))
        let ran = try fake.ran()
        #expect(!ran.isEmpty && ran.count < Self.suite.count, "one shard's part: \(ran)")
        #expect(try JUnitReader.read(path: bazel + "/test.xml").tests == ran.count)
        #expect(Set(try RunReportWriter.read(folder: bazel + "/outputs").flows.map(\.path)) == Set(ran))
        #expect(output.stdout.contains("Bazel keeps TEST_UNDECLARED_OUTPUTS_DIR after the test: bazel-testlogs/swift/suite/shard_2_of_2/test.outputs/outputs.zip\n"))
        let calls = try fake.calls()
        #expect(!calls.isEmpty && calls.allSatisfy { $0.hasSuffix(" " + bazel + "/outputs") }, "\(calls)")
        let tmpdirs = try String(contentsOfFile: fake.folder.path + "/tmpdirs.txt", encoding: .utf8).split(separator: "\n")
        #expect(!tmpdirs.isEmpty && tmpdirs.allSatisfy { $0 == bazel + "/tmp" }, "\(tmpdirs)")
    }

    @Test func aFailureIsShownAtItsFileAndLineAndFailsTheShard() async throws {
        let fake = try FakeSwift(tests: ["FakeTests.Suite/passes()", "FakeTests.Suite/itFails()", "FakeTests.Suite/isSkipped()"])
        defer { fake.remove() }
        let output = try await runHarness(
            ["swift-test", "--swift", fake.executable, "--package-path", fake.package, "--artifacts", "out", "--junit", "junit.xml"],
            in: fake.folder.path)
        #expect(output.status == 1)
        #expect(output.lastLine == "1 passed, 1 failed, 1 skipped", "\(output.stdout)\(output.stderr)")
        // JUnit calls it a test's failure, not a flow's.
        let junit = try JUnitReader.read(path: fake.folder.path + "/junit.xml")
        let types = junit.suites.flatMap(\.cases).compactMap { testCase -> String? in
            guard case .failure(let detail) = testCase.result else { return nil }
            return detail.type
        }
        #expect(types == ["TestFailure"], "\(junit)")
        #expect(output.stdout.contains("✗ FakeTests.Suite/itFails() (0.25s): Expectation failed: it fails"))
        #expect(output.stdout.contains("Tests/FakeTests/Fake.swift:2:9: Expectation failed: it fails"))
        let report = try RunReportWriter.read(folder: fake.folder.path + "/out")
        let failed = try #require(report.flows.first { $0.path == "FakeTests.Suite/itFails()" })
        #expect(failed.attempts.first?.position?.description == "Tests/FakeTests/Fake.swift:2:9")
    }

    /// The test loop's shared options: `--repeat-each` runs `swift test` again, `--last-failed`
    /// runs the tests that failed in the artifacts folder's last run.
    @Test func repeatEachAndLastFailedRunTheRightTests() async throws {
        let fake = try FakeSwift(tests: ["FakeTests.Suite/passes()", "FakeTests.Suite/itFails()"])
        defer { fake.remove() }
        let command = ["swift-test", "--swift", fake.executable, "--package-path", fake.package, "--artifacts", "out"]
        let repeated = try await runHarness(command + ["--repeat-each", "2"], in: fake.folder.path)
        #expect(try fake.ran().sorted() == ["FakeTests.Suite/itFails()", "FakeTests.Suite/itFails()",
                                            "FakeTests.Suite/passes()", "FakeTests.Suite/passes()"])
        #expect(repeated.lastLine == "2 passed, 2 failed", "\(repeated.stdout)\(repeated.stderr)")
        #expect(repeated.stdout.contains("FakeTests.Suite/itFails() (repeat 2)"))
        // The progress counts across the repetitions: the second run's lines are [3/4] and [4/4].
        let places = repeated.stdout.split(separator: "\n").compactMap { line in
            line.hasPrefix("[") ? line.split(separator: "]").first.map { String($0.dropFirst()) } : nil
        }
        #expect(places == ["1/4", "2/4", "3/4", "4/4"], "\(repeated.stdout)")
        try FileManager.default.removeItem(atPath: fake.folder.path + "/ran.txt")
        let again = try await runHarness(command + ["--last-failed"], in: fake.folder.path)
        #expect(try fake.ran() == ["FakeTests.Suite/itFails()"], "\(again.stdout)\(again.stderr)")
        #expect(again.lastLine == "0 passed, 1 failed")
    }

    /// `--tag` and `--skip-tag` choose by Swift Testing's tags, which the listing's event stream says.
    @Test func tagsChooseTheTests() async throws {
        let fake = try FakeSwift(tests: ["FakeTests.Suite/fast()", "FakeTests.Suite/slow()", "FakeTests.Suite/untagged()"])
        defer { fake.remove() }
        try fake.folder.write("FakeTests.Suite/fast() smoke\nFakeTests.Suite/slow() smoke,network\n", at: "tags.txt")
        let command = ["swift-test", "--swift", fake.executable, "--package-path", fake.package]
        _ = try await runHarness(command + ["--tag", "smoke", "--skip-tag", "network"], in: fake.folder.path)
        #expect(try fake.ran() == ["FakeTests.Suite/fast()"])
        try FileManager.default.removeItem(atPath: fake.folder.path + "/ran.txt")
        _ = try await runHarness(command + ["--skip-tag", "smoke"], in: fake.folder.path)
        #expect(try fake.ran() == ["FakeTests.Suite/untagged()"])
        let none = try await runHarness(command + ["--tag", "nightly"], in: fake.folder.path)
        #expect(none.status == 1 && none.stderr.contains("no test matches --filter \"tag:nightly\""), "\(none.stderr)")
    }

    @Test func noTestsOrAFilterThatMatchesNothingFailButAnEmptyShardDoesNot() async throws {
        let empty = try FakeSwift(tests: [])
        defer { empty.remove() }
        let none = try await runHarness(["swift-test", "--swift", empty.executable, "--package-path", empty.package], in: empty.folder.path)
        #expect(none.status == 1)
        #expect(none.stderr.contains("the package has no tests"), "\(none.stderr)")

        let fake = try FakeSwift(tests: ["FakeTests.Suite/only()"])
        defer { fake.remove() }
        let unmatched = try await runHarness(
            ["swift-test", "--swift", fake.executable, "--package-path", fake.package, "--", "--filter", "Nothing"], in: fake.folder.path)
        #expect(unmatched.status == 1)
        #expect(unmatched.stderr.contains("no test matches --filter \"Nothing\" (of 1 tests listed)"), "\(unmatched.stderr)")

        let other = FlowShard.shardIndex(of: "FakeTests.Suite/only()", count: 2) == 1 ? 2 : 1
        let idle = try await runHarness(
            ["swift-test", "--swift", fake.executable, "--package-path", fake.package, "--shard", "\(other)/2", "--artifacts", "out"],
            in: fake.folder.path)
        #expect(idle.status == 0, "\(idle.stdout)\(idle.stderr)")
        #expect(idle.stdout.contains("has none of the 1 tests"), "\(idle.stdout)")
        #expect(try fake.ran().isEmpty)
        // It still leaves a report, so that merge-reports finds every shard.
        #expect(try RunReportWriter.read(folder: fake.folder.path + "/out").flows.isEmpty)
    }

    // MARK: - Merged with flows

    @Test func mergedSwiftAndFlowShardsEqualAnUnshardedRun() async throws {
        let fake = try FakeSwift(tests: Array(Self.suite.keys) + ["FakeTests.Suite/itFails()", "FakeTests.Suite/isSkipped()"])
        defer { fake.remove() }
        let folder = fake.folder
        for name in ["one", "two", "three"] {
            try folder.write("""
                app sh -c "echo \(name); exec cat"
                launch
                expect "\(name)"
                """, at: "flows/\(name).flow")
        }
        let swift = ["swift-test", "--swift", fake.executable, "--package-path", fake.package]
        for index in 1...3 {
            _ = try await runHarness(swift + ["--shard", "\(index)/3", "--artifacts", "swift-\(index)"], in: folder.path)
        }
        for index in 1...2 {
            _ = try await runHarness(["run", "flows", "--shard", "\(index)/2", "--artifacts", "flows-\(index)"], in: folder.path)
        }
        _ = try await runHarness(swift + ["--artifacts", "swift-all"], in: folder.path)
        _ = try await runHarness(["run", "flows", "--artifacts", "flows-all"], in: folder.path)
        let sharded = try await runHarness(
            ["merge-reports", "sharded", "swift-1", "swift-2", "swift-3", "flows-1", "flows-2"], in: folder.path)
        let whole = try await runHarness(["merge-reports", "whole", "swift-all", "flows-all"], in: folder.path)
        #expect(sharded.status == 0, "\(sharded.stdout)\(sharded.stderr)")
        #expect(whole.status == 0, "\(whole.stdout)\(whole.stderr)")

        let shardedReport = try RunReportWriter.read(folder: folder.path + "/sharded")
        let wholeReport = try RunReportWriter.read(folder: folder.path + "/whole")
        let expected = Self.suite.count + 2 + 3
        #expect(wholeReport.flows.count == expected)
        #expect(shardedReport.summary == wholeReport.summary)
        #expect(shardedReport.summary == FlowRunSummary(passed: expected - 2, failed: 1, skipped: 1))
        #expect(shardedReport.flows.map(\.path) == wholeReport.flows.map(\.path))
        #expect(shardedReport.flows.map(\.status) == wholeReport.flows.map(\.status))
        #expect(Set(shardedReport.shards) == ["1/3", "2/3", "3/3", "1/2", "2/2"])
        let merged = try JUnitReader.read(path: folder.path + "/sharded/junit.xml")
        #expect(merged.tests == expected)
    }
}

/// docs/NIGHTLY.md's "Swift suites" recipes: every `harness swift-test` command of its YAML
/// blocks runs as written (CI variables and shell variables filled in) against a fake `swift`.
@Suite struct SwiftSuitesRecipeTests {
    static func commands() throws -> [String] {
        let text = try DocumentedExamples.read("docs/NIGHTLY.md", fromTestFile: #filePath)
        let blocks = DocumentedExamples.blocks(in: text, document: "docs/NIGHTLY.md", language: "yaml", section: "Swift suites")
        return blocks.flatMap(\.lines).map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.contains("harness swift-test") }
    }

    @Test func theRecipesHaveTheirCommands() throws {
        #expect(try Self.commands().count == 2)
    }

    @Test(arguments: try commands())
    func aRecipeCommandRuns(_ line: String) async throws {
        let fake = try FakeSwift(tests: ["TodoAcceptanceTests.TodoAcceptanceTests/one()", "TodoAcceptanceTests.TodoAcceptanceTests/two()",
                                         "TodoAcceptanceTests.TodoAcceptanceTests/three()"])
        defer { fake.remove() }
        let filled = line.replacingOccurrences(of: "${{ matrix.shard }}", with: "1")
            .replacingOccurrences(of: "$durations", with: "")
            .replacingOccurrences(of: "$plan", with: "")
            .replacingOccurrences(of: "\"$out\"", with: fake.folder.path + "/out")
            .replacingOccurrences(of: "/suite", with: fake.package)
        var words = filled.split(separator: " ").map(String.init)
        let start = try #require(words.firstIndex { $0.hasSuffix("harness") })
        words.removeFirst(start + 1)
        let output = try await runHarness(words, in: fake.package, environment: [
            "HARNESS_SWIFT": fake.executable, "HARNESS_SHARD_INDEX": "1", "HARNESS_SHARD_TOTAL": "1", "JOB_COMPLETION_INDEX": "0",
        ])
        #expect(output.status == 0, "\(words)\n\(output.stdout)\(output.stderr)")
        #expect(try fake.ran().count == 3 || words.contains("auto/3"), "\(output.stdout)")
        #expect(output.stdout.contains("Artifacts: "), "\(output.stdout)")
    }
}
