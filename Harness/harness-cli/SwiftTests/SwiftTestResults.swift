import Foundation
import HarnessFlows
import HarnessCore

/// What `swift test` reported about a list of tests, as flow results (one attempt each, the
/// test's name as its path), so that JUnit, the history and the run report treat a Swift test
/// like a flow.
///
/// Three sources, each optional:
/// - the xUnit files of `--xunit-output FILE`: on Swift 6, Swift Testing writes its own beside
///   `FILE`, named `FILE-swift-testing.xml`, and SwiftPM writes `FILE` for XCTest (only with
///   `--parallel`). Verdicts and times come from here; a case is found by its class name and
///   name (`Module.Suite.Nested` + `test()` is `Module.Suite/Nested/test()`);
/// - Swift Testing's event stream (`--event-stream-output-path`, version 0, JSON lines): each
///   test's file and line, each issue with its message and where it was recorded, and the
///   argument cases of parameterized tests, each of which becomes a result of its own;
/// - the console output, for XCTest's `FILE:LINE: error: Class.test : message` lines.
///
/// A test that none of them mentions failed (`swift test` crashed, was stopped, or did not
/// build): its message says so and includes `problem` when given.
package struct SwiftTestResults: Sendable {
    /// The xUnit reports read.
    var xunit: [JUnitReport] = []
    /// Issues and source locations by test name, from the event streams.
    var issues: [String: [SwiftTestIssue]] = [:]
    /// Where each test is declared, from the event streams.
    var locations: [String: SourcePosition] = [:]
    /// Why a test was skipped, from the event streams.
    var skipReasons: [String: String] = [:]
    /// Each Swift Testing test's tags (without the leading `.`), from the event stream's test
    /// records: `harness swift-test --tag` and `--skip-tag` select by them.
    var tags: [String: Set<String>] = [:]
    /// The tests the event streams saw start, and those they saw end.
    var started: Set<String> = []
    var ended: Set<String> = []
    /// XCTest's failure lines by `Class.method`.
    var consoleFailures: [String: [SwiftTestIssue]] = [:]
    /// The argument cases of parameterized tests, by test name, in Swift Testing's order
    /// (``caseResults(of:problem:interruption:)``).
    var parameterCases: [String: [SwiftTestCase]] = [:]
    /// Parameterized tests that recorded an issue outside any of their cases.
    var issuesOutsideCases: Set<String> = []
    /// The package's folder: source paths under it are shown relative to it.
    let packageDirectory: String

    /// Results to be filled from the outputs of runs in `packageDirectory`.
    package init(packageDirectory: String) {
        self.packageDirectory = packageDirectory
    }

    // MARK: - Reading

    /// Reads the xUnit report at `path` when it exists.
    /// - Throws: ``JUnitReadError`` when it exists but cannot be read.
    package mutating func readXUnit(path: String) throws(JUnitReadError) {
        guard FileManager.default.fileExists(atPath: path) else { return }
        xunit.append(try JUnitReader.read(path: path))
    }

    /// Reads a Swift Testing event stream (JSON lines, version 0); lines it does not know are
    /// left out.
    package mutating func readEventStream(_ data: Data) {
        let decoder = JSONDecoder()
        for line in data.split(separator: UInt8(ascii: "\n")) where !line.isEmpty {
            guard let record = try? decoder.decode(EventRecord.self, from: Data(line)), let payload = record.payload else { continue }
            switch (record.kind, payload.kind) {
            case ("test", "function"):
                if let id = payload.id, let location = payload.sourceLocation {
                    locations[Self.listName(ofStreamID: id)] = position(location)
                }
                if let id = payload.id, payload.isParameterized == true, let cases = payload._testCases {
                    parameterCases[Self.listName(ofStreamID: id)] = cases.map { SwiftTestCase(id: $0.id, displayName: $0.displayName) }
                }
                if let id = payload.id, let tags = payload.tags {
                    self.tags[Self.listName(ofStreamID: id)] = Set(tags.map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 })
                }
            case ("event", "issueRecorded"):
                guard let id = payload.testID, payload.issue?.isKnown != true else { continue }
                var lines = (payload.messages ?? []).map(\.text)
                // "Issue recorded" heads an issue recorded with a comment (`Issue.record("...")`):
                // the comment says it all.
                if lines.count > 1, lines[0] == "Issue recorded" { lines.removeFirst() }
                let location = payload.issue?.sourceLocation.map(position)
                let issue = SwiftTestIssue(message: lines.joined(separator: "\n"), position: location)
                let name = Self.listName(ofStreamID: id)
                issues[name, default: []].append(issue)
                if let testCase = payload._testCase {
                    updateCase(testCase, of: name) { $0.issues.append(issue) }
                } else if parameterCases[name] != nil {
                    issuesOutsideCases.insert(name)
                }
            case ("event", "testCaseStarted"):
                if let id = payload.testID, let testCase = payload._testCase {
                    updateCase(testCase, of: Self.listName(ofStreamID: id)) { $0.started = payload.instant?.absolute }
                }
            case ("event", "testCaseEnded"):
                if let id = payload.testID, let testCase = payload._testCase {
                    updateCase(testCase, of: Self.listName(ofStreamID: id)) { $0.ended = payload.instant?.absolute }
                }
            case ("event", "testCaseCancelled"):
                if let id = payload.testID, let testCase = payload._testCase {
                    let reason = (payload._comments ?? []).joined(separator: "\n")
                    updateCase(testCase, of: Self.listName(ofStreamID: id)) { $0.cancelled = reason.isEmpty ? "cancelled" : reason }
                }
            case ("event", "testStarted"):
                if let id = payload.testID { started.insert(Self.listName(ofStreamID: id)) }
            case ("event", "testEnded"):
                if let id = payload.testID { ended.insert(Self.listName(ofStreamID: id)) }
            case ("event", "testSkipped"):
                if let id = payload.testID, let text = payload.messages?.first?.text {
                    skipReasons[Self.listName(ofStreamID: id)] = text
                }
            default:
                continue
            }
        }
    }

    /// Reads XCTest's failure lines (`/path/File.swift:12: error: Class.testName : message`)
    /// from console output.
    package mutating func readConsole(_ output: String) {
        for line in output.split(whereSeparator: \.isNewline) {
            guard let error = line.range(of: ": error: ") else { continue }
            let place = line[..<error.lowerBound]
            let rest = line[error.upperBound...]
            guard let colon = place.lastIndex(of: ":"), let number = Int(place[place.index(after: colon)...]),
                  let separator = rest.range(of: " : ") else { continue }
            let test = String(rest[..<separator.lowerBound])
            let file = relative(String(place[..<colon]))
            consoleFailures[test, default: []].append(SwiftTestIssue(
                message: String(rest[separator.upperBound...]), position: SourcePosition(file: file, line: number, column: 1)))
        }
    }

    // MARK: - Results

    /// One result per name in `identifiers`, or per argument case of a parameterized test
    /// (``caseResults(of:problem:interruption:)``); `problem` is added to the message of a test
    /// that no output mentions (e.g. `swift test exited with status 1`).
    ///
    /// With `interruption` (the run was cancelled: `interrupted by SIGINT`), `swift test` was
    /// stopped before it wrote its xUnit files: a test the event stream saw end passed, or failed
    /// with the issues it recorded; one it saw start, or never saw, is interrupted.
    package func results(for identifiers: [String], problem: String?, interruption: String? = nil) -> [FlowResult] {
        var cases: [String: [JUnitTestCase]] = [:]
        for report in xunit {
            for suite in report.suites {
                for testCase in suite.cases {
                    let key = testCase.classname.isEmpty ? testCase.name : testCase.classname + "." + testCase.name
                    cases[key, default: []].append(testCase)
                }
            }
        }
        return identifiers.flatMap { identifier -> [FlowResult] in
            let found = cases[Self.xunitKey(of: identifier)] ?? []
            let seconds = found.reduce(0) { $0 + $1.time }
            let duration = Duration.milliseconds(Int64((seconds * 1000).rounded()))
            let outcome: AttemptOutcome
            if found.isEmpty, let interruption {
                if ended.contains(identifier) {
                    outcome = issues[identifier].map { _ in .failed(failure(of: identifier, xunitMessage: "failed")) } ?? .passed
                } else {
                    let state = started.contains(identifier) ? "" : ": not started"
                    outcome = .interrupted(FlowFailure(message: interruption + state, position: locations[identifier]))
                }
            } else if found.isEmpty {
                var message = "swift test reported no result for this test"
                if let problem { message += ": \(problem)" }
                outcome = .failed(FlowFailure(message: message, position: locations[identifier]))
            } else if let failed = found.lazy.compactMap(Self.failureDetail).first {
                outcome = .failed(failure(of: identifier, xunitMessage: failed.message))
            } else if found.allSatisfy({ if case .skipped = $0.result { true } else { false } }) {
                let reason = skipReasons[identifier] ?? found.lazy.compactMap { testCase -> String? in
                    if case .skipped(let message) = testCase.result { return message } else { return nil }
                }.first ?? "skipped"
                outcome = .skipped(reason: reason)
            } else {
                outcome = .passed
            }
            let whole = FlowResult(flow: FlowFile(path: identifier, relativePath: identifier),
                                   attempts: [FlowAttempt(number: 1, duration: duration, outcome: outcome)])
            return caseResults(of: identifier, problem: problem, interruption: interruption) ?? [whole]
        }
    }

    /// Where `identifier` is declared, when the event stream said.
    package func location(of identifier: String) -> SourcePosition? {
        locations[identifier]
    }

    /// The failure of a test whose xUnit case failed: its issues from the event stream (the
    /// first one's place as the position, every further one on a line of its own with its
    /// place), else XCTest's console lines, else the xUnit message.
    func failure(of identifier: String, xunitMessage: String) -> FlowFailure {
        let found = issues[identifier] ?? consoleFailures[Self.consoleName(of: identifier)] ?? []
        guard !found.isEmpty else {
            let message = xunitMessage.isEmpty || xunitMessage == "failure" ? "failed" : xunitMessage
            return FlowFailure(message: message, position: locations[identifier])
        }
        return Self.failure(of: found, position: locations[identifier])
    }

    /// The failure of `issues` (at least one): the first one's place as the position (else
    /// `position`), every further one on a line of its own with its place.
    static func failure(of issues: [SwiftTestIssue], position: SourcePosition?) -> FlowFailure {
        var lines = [issues[0].message]
        for issue in issues.dropFirst() {
            lines.append((issue.position.map { "\($0): " } ?? "") + issue.message)
        }
        return FlowFailure(message: lines.joined(separator: "\n"), position: issues[0].position ?? position)
    }

    // MARK: - Names

    /// The name `swift test list` gives the test of an event stream id
    /// (``SnapshotLedger/Owner/swiftTestListName(ofStreamID:)``).
    static func listName(ofStreamID id: String) -> String {
        SnapshotLedger.Owner.swiftTestListName(ofStreamID: id)
    }

    /// The class name and name of a test's xUnit case, joined by a dot: its name with dots for
    /// slashes (`Module.Suite/Nested/test()` is `Module.Suite.Nested.test()`).
    static func xunitKey(of identifier: String) -> String {
        identifier.replacingOccurrences(of: "/", with: ".")
    }

    /// How XCTest names a test in its console lines: `Class.method` for `Module.Class/method`.
    static func consoleName(of identifier: String) -> String {
        guard let slash = identifier.lastIndex(of: "/") else { return identifier }
        let type = identifier[..<slash]
        let shortType = type.firstIndex(of: ".").map { type[type.index(after: $0)...] } ?? type
        return shortType + "." + identifier[identifier.index(after: slash)...]
    }

    static func failureDetail(_ testCase: JUnitTestCase) -> JUnitFailureDetail? {
        switch testCase.result {
        case .failure(let detail), .error(let detail): detail
        case .passed, .skipped: nil
        }
    }

    private func position(_ location: EventRecord.Location) -> SourcePosition {
        let file = location.filePath.map(relative) ?? location.fileID ?? "?"
        return SourcePosition(file: file, line: location.line, column: location.column ?? 1)
    }

    /// `path` relative to the package's folder when inside it.
    private func relative(_ path: String) -> String {
        let root = packageDirectory.hasSuffix("/") ? packageDirectory : packageDirectory + "/"
        return path.hasPrefix(root) ? String(path.dropFirst(root.count)) : path
    }
}

/// One issue a test recorded: its message and where.
struct SwiftTestIssue: Sendable, Hashable {
    var message: String
    var position: SourcePosition?
}

/// The parts of a Swift Testing event stream record (version 0) that the results use.
struct EventRecord: Decodable {
    var kind: String
    var payload: Payload?

    struct Payload: Decodable {
        var kind: String?
        var id: String?
        var testID: String?
        /// A test's Swift Testing tags (`.acceptance`), its suites' included.
        var tags: [String]?
        var sourceLocation: Location?
        var issue: Issue?
        var messages: [Message]?
        var isParameterized: Bool?
        var instant: Instant?
        // Not yet in the stream's schema (hence the underscore), but written since Swift 6.0.
        var _testCases: [TestCase]?
        var _testCase: TestCase?
        var _comments: [String]?

        enum CodingKeys: String, CodingKey {
            case kind, id, testID, sourceLocation, issue, messages, isParameterized, instant
            case _testCases, _testCase, _comments
            case tags = "_tags"
        }
    }

    struct TestCase: Decodable {
        var id: String
        var displayName: String
    }

    struct Instant: Decodable {
        var absolute: Double
    }

    struct Location: Decodable {
        var fileID: String?
        var filePath: String?
        var line: Int
        var column: Int?

        enum CodingKeys: String, CodingKey {
            case fileID, line, column
            case filePath = "_filePath"
        }
    }

    struct Issue: Decodable {
        var isKnown: Bool?
        var sourceLocation: Location?
    }

    struct Message: Decodable {
        var text: String
    }
}
