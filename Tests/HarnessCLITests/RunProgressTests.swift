import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport
import Testing
import Harness
@testable import HarnessFlows
@testable import HarnessSteps

/// `harness run`'s progress: every finished flow's line shows its place (`[3/5]`); on a terminal
/// a live status line (what runs, the time so far, the time left) is redrawn in place and gone
/// before the summary; through a pipe, plain lines only, never an escape sequence.
@Suite struct RunProgressTests {
    // MARK: - The status line's text

    @Test func theEstimateSpreadsTheWorkLeftOverTheWorkers() {
        var status = FlowRunStatus(names: ["a", "b", "c", "d"], workers: 2, durations: ["a": 10, "b": 20, "c": 30])
        // d has no duration: it counts as the average known one (20).
        #expect(status.secondsLeft(at: 0) == 40)
        status.started("a", at: 0)
        status.started("b", at: 0)
        // 4 s in: a needs 6 more, b 16, c 30, d 20.
        #expect(status.secondsLeft(at: 4) == 36)
        status.started("a", at: 3)  // a retry keeps the first start
        #expect(status.secondsLeft(at: 4) == 36)
        status.finished("a", seconds: 12)
        status.started("c", at: 12)
        status.finished("b", seconds: 21)
        status.finished("d", seconds: 5)
        // Only c runs: what it still needs, not half of it.
        #expect(status.secondsLeft(at: 22) == 20)
        #expect(status.done == 3)
        // Overdue flows need nothing more.
        #expect(status.secondsLeft(at: 100) == 0)
    }

    @Test func withoutHistoryTheFinishedFlowsGiveTheEstimate() {
        var status = FlowRunStatus(names: ["a", "b", "c"], workers: 1, durations: [:])
        status.started("a", at: 0)
        #expect(status.secondsLeft(at: 1) == nil)
        #expect(!status.line(at: 1, width: 200).contains("left"))
        status.finished("a", seconds: 4)
        #expect(status.secondsLeft(at: 4) == 8)
        #expect(status.line(at: 4, width: 200) == "1/3 done, 0 running · 4s so far, about 8s left")
    }

    @Test(arguments: [200, 88, 71, 50, 20, 2])
    func theLineFitsTheTerminalWithItsLastColumnFree(width: Int) {
        var status = FlowRunStatus(names: ["suite/alpha.flow", "suite/beta.flow", "suite/gamma.flow"], workers: 3,
                                   durations: ["suite/alpha.flow": 65, "suite/beta.flow": 65, "suite/gamma.flow": 65])
        for name in ["suite/alpha.flow", "suite/beta.flow", "suite/gamma.flow"] { status.started(name, at: 0) }
        let line = status.line(at: 5, width: width)
        #expect(line.count <= width - 1 || (width <= 2 && line.count <= 1), "\(line.debugDescription)")
        switch width {
        case 200: #expect(line == "0/3 done, 3 running: suite/alpha.flow, suite/beta.flow, suite/gamma.flow · 5s so far, about 1m00s left")
        case 88: #expect(line == "0/3 done, 3 running: suite/alpha.flow, suite/beta.flow +1 · 5s so far, about 1m00s left")
        case 71: #expect(line == "0/3 done, 3 running: suite/alpha.flow +2 · 5s so far, about 1m00s left")
        default: #expect(line.hasPrefix(String("0/3 done".prefix(max(width - 2, 0)))))
        }
    }

    @Test func durationsAreShortAndRounded() {
        #expect(FlowRunStatus.duration(0.4) == "0s")
        #expect(FlowRunStatus.duration(59.6) == "1m00s")
        #expect(FlowRunStatus.duration(185) == "3m05s")
        #expect(FlowRunStatus.duration(3725) == "1h02m")
    }

    // MARK: - docs/FLOWS.md

    /// The bare blocks of docs/FLOWS.md's "Running flows" section, their lines without the
    /// list item's indentation.
    static func documentedBlocks() throws -> [[String]] {
        let text = try DocumentedExamples.read("docs/FLOWS.md", fromTestFile: #filePath)
        return DocumentedExamples.blocks(in: text, document: "docs/FLOWS.md", language: "", section: "Running flows (`harness run`)")
            .map { block in block.lines.map { $0.hasPrefix("  ") ? String($0.dropFirst(2)) : $0 } }
    }

    @Test func theDocumentedProgressIsWhatTheReporterPrints() throws {
        let block = try #require(try Self.documentedBlocks().first { $0.first?.hasPrefix("Running 4 flows") == true })
        func result(_ name: String, _ outcomes: [AttemptOutcome], milliseconds: Int) -> FlowResult {
            FlowResult(flow: FlowFile(path: "/x/Tests/Flows/\(name).flow", relativePath: "Tests/Flows/\(name).flow"),
                       attempts: outcomes.enumerated().map {
                           FlowAttempt(number: $0.offset + 1, duration: .milliseconds(milliseconds / outcomes.count), outcome: $0.element)
                       })
        }
        let results = [
            result("idle", [.passed], milliseconds: 420),
            result("error", [.failed(FlowFailure(message: "expected \"Try again\" within 5s"))], milliseconds: 1200),
            result("loaded", [.failed(FlowFailure(message: "x")), .passed], milliseconds: 950),
            result("bridge", [.skipped(reason: "no bridge")], milliseconds: 0),
        ]
        let printed = PrintedLines()
        let reporter = FlowProgressReporter(total: results.count) { printed.all.append($0) }
        for result in results { reporter.flowFinished(result) }
        #expect(Array(block[1...4]) == printed.all, "\(block)")
        #expect(block.last == FlowRunSummary(results).description)
        #expect(FlowProgressReporter.summary(of: results).hasSuffix("\n" + block.last!))
    }

    @Test func theDocumentedStatusLineIsWhatTheStatusDraws() throws {
        let block = try #require(try Self.documentedBlocks().first { $0.first?.contains(" done, ") == true })
        // Ten flows of 30 s on two workers; three done; a and b running since 60 s; 65 s in.
        let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"].map { "Tests/Flows/\($0).flow" }
        var status = FlowRunStatus(names: names, workers: 2, durations: Dictionary(uniqueKeysWithValues: names.map { ($0, 30) }))
        for name in names.suffix(3) {
            status.started(name, at: 0)
            status.finished(name, seconds: 20)
        }
        status.started(names[0], at: 60)
        status.started(names[1], at: 60)
        #expect(block == [status.line(at: 65, width: 200)])
    }

    // MARK: - Through the built harness

    @Test func throughAPipeEachLineHasItsPlaceAndThereIsNoEscapeSequence() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        for index in 1...5 {
            try fixture.write("app sh -c \"echo flow-\(index); exec cat\"\nlaunch\nexpect \"flow-\(index)\"\n", at: "suite/f\(index).flow")
        }
        try fixture.write("app sh -c \"echo nope; exec cat\"\nlaunch\ntimeout 100ms\nexpect \"yes\"\n", at: "suite/g-fails.flow")
        let output = try await runHarness(["run", "suite", "--jobs", "2"], in: fixture.folder)
        #expect(output.status == 1)
        #expect(!output.stdout.utf8.contains(0x1B) && !output.stderr.utf8.contains(0x1B), "\(output.stdout.debugDescription)")
        let places = output.stdout.split(separator: "\n").compactMap { line in
            line.firstMatch(of: /^\[(\d+)\/6\] [✓✗~-] suite\/[a-z0-9-]+\.flow \(/).map { Int($0.1)! }
        }
        #expect(places == Array(1...6), "\(output.stdout)")
        #expect(output.stdout.contains("] ✗ suite/g-fails.flow ("))
        #expect(output.lastLine == "5 passed, 1 failed")
    }

    /// A flow whose program waits until the test writes a line into its fifo.
    static func gatedFlow(_ fifo: String, says word: String) -> String {
        "app sh -c \"read go < \(fifo); echo \(word); exec cat\"\nlaunch\nexpect \"\(word)\"\n"
    }

    /// A duration as the status line writes it (`4s`, `3m13s`, `1h02m`).
    static let duration = #"(\d+s|\d+m\d\ds|\d+h\d\dm)"#
    /// The status line's times: so far, and the estimate left.
    static let times = "\(duration) so far, about \(duration) left"

    @Test func durationsMatchWhatTheStatusLineWrites() throws {
        let regex = try Regex("^" + Self.duration + "$")
        for seconds in [0.4, 59.6, 193, 3725] { #expect(FlowRunStatus.duration(seconds).contains(regex), "\(seconds)") }
    }

    @Test func onATerminalALiveStatusLineShowsWhatRunsAndIsGoneBeforeTheSummary() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        var gates: [String: Int32] = [:]
        defer { for descriptor in gates.values { close(descriptor) } }
        for name in ["a", "b"] {
            let fifo = fixture.folder + "/gate-\(name)"
            try #require(mkfifo(fifo, 0o600) == 0, "mkfifo \(fifo): errno \(errno)")
            // Read and write, so opening never waits and a line stays until the flow reads it.
            let descriptor = open(fifo, O_RDWR | O_CLOEXEC)
            try #require(descriptor >= 0)
            gates[name] = descriptor
            try fixture.write(Self.gatedFlow(fifo, says: "released-\(name)"), at: "suite/\(name).flow")
        }
        try fixture.write("app sh -c \"echo quick; exec cat\"\nlaunch\nexpect \"quick\"\n", at: "suite/c.flow")
        // Earlier durations, for the estimate.
        let entries = ["a", "b", "c"].map { FlowHistory.Entry(path: "suite/\($0).flow", status: .passed, seconds: 30, attempts: 1) }
        try FlowHistory(directory: fixture.folder + "/history").append(FlowHistory.Run(date: Date(), flows: entries))

        var environment = testEnvironment
        environment["HARNESS_RECORD"] = "never"
        environment["HARNESS_PRODUCTS_DIR"] = BuildProducts.directory.path
        // The gated flows wait for this test, which on a loaded machine may resume a step long
        // after the last: their waits get far longer than the test's own, so that only the
        // test's waits (which count from when they begin) can time out.
        let session = try TerminalSession.launch(.init(
            executable: try BuildProducts.executable(named: "harness").path,
            arguments: ["run", "suite", "--jobs", "2", "--history", "history", "--timeout", "30m"],
            environment: environment, workingDirectory: fixture.folder, size: TerminalSize(cols: 150, rows: 20),
            defaultTimeout: mustSucceedTimeout))
        defer { _ = session.terminate() }

        // a and b wait on the test: the status line names them (in the order the two workers
        // started them), with the time so far and left.
        try await session.waitFor(
            regex: #"^0/3 done, 2 running: (suite/a\.flow, suite/b\.flow|suite/b\.flow, suite/a\.flow) · "# + Self.times + "$")
        func release(_ name: String) throws {
            let line = Array("go\n".utf8)
            try #require(write(gates[name]!, line, line.count) == line.count)
        }
        try release("a")
        // a done, then c (quick) in its place; b still waits: the line moved on.
        do {
            try await session.waitFor(regex: #"^2/3 done, 1 running: suite/b\.flow · "# + Self.times + "$")
        } catch {
            // The harness's whole output (its failures scroll off a 20-row terminal).
            let printed = session.screen.transcriptLines.filter { !$0.allSatisfy { $0 == " " || $0 == "│" } }
            Issue.record(Comment(rawValue: "harness run printed:\n" + printed.joined(separator: "\n")))
            throw error
        }
        let placed = session.screen.text
        #expect(placed.contains("[1/3] ✓ suite/a.flow ("), "\(placed)")
        #expect(placed.contains("[2/3] ✓ suite/c.flow ("), "\(placed)")
        try release("b")
        let status = try await session.waitForExit()
        #expect(status == .exited(0))
        let screen = session.screen.text
        #expect(screen.contains("[3/3] ✓ suite/b.flow ("), "\(screen)")
        #expect(screen.hasSuffix("3 passed, 0 failed") || screen.contains("3 passed, 0 failed\n"), "\(screen)")
        #expect(!screen.contains("running") && !screen.contains("so far"), "the status line is gone:\n\(screen)")
    }
}

/// The lines a reporter wrote (it writes one at a time).
private final class PrintedLines: @unchecked Sendable {
    var all: [String] = []
}
