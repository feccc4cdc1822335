import Foundation
import Testing
import Harness
import HarnessSystem
@testable import HarnessFlows
@testable import HarnessSteps

/// Records calls from concurrent jobs.
final class CallLog: Sendable {
    private struct State {
        var calls: [(String, Int)] = []
        var running = 0
        var maximumRunning = 0
        var finished: [String] = []
    }
    private let state = Locked(State())

    func begin(_ flow: FlowFile, _ attempt: Int) {
        state.withLock { state in
            state.calls.append((flow.relativePath, attempt))
            state.running += 1
            state.maximumRunning = max(state.maximumRunning, state.running)
        }
    }
    func end() { state.withLock { $0.running -= 1 } }
    func finish(_ path: String) { state.withLock { $0.finished.append(path) } }
    var maximumRunning: Int { state.withLock { $0.maximumRunning } }
    var attempts: [String: [Int]] { state.withLock { Dictionary(grouping: $0.calls, by: \.0).mapValues { $0.map(\.1) } } }
    var finishedPaths: [String] { state.withLock { $0.finished } }
    /// Each job's attempt number, in the order the jobs began.
    var attemptOrder: [Int] { state.withLock { $0.calls.map(\.1) } }
}

@Suite struct FlowWorkerPoolTests {
    /// Outcomes per flow name, by attempt (the last repeats).
    static let script: [String: [AttemptOutcome]] = [
        "pass": [.passed],
        "fail": [.failed(FlowFailure(message: "expected \"x\"\nscreen...", position: SourcePosition(file: "fail.flow", line: 3, column: 1)))],
        "flaky": [.failed(FlowFailure(message: "timeout")), .passed],
        "very-flaky": [.failed(FlowFailure(message: "one")), .failed(FlowFailure(message: "two")), .passed],
        "skip": [.skipped(reason: "no bridge")],
    ]

    func run(retries: Int, jobs: Int = 3, retriesAlone: Bool = false, log: CallLog = CallLog()) async -> [FlowResult] {
        let flows = ["skip", "pass", "very-flaky", "fail", "flaky"].map { flowFile("F/\($0).flow") }
        let pool = FlowWorkerPool(jobs: jobs, retries: retries, retriesAlone: retriesAlone)
        return await pool.run(flows, job: { flow, attempt in
            log.begin(flow, attempt)
            defer { log.end() }
            await Task.yield()
            let outcomes = Self.script[flow.name]!
            return outcomes[min(attempt, outcomes.count) - 1]
        }, onFinish: { log.finish($0.path) })
    }

    @Test func retriesMakeFlakyFlowsAndAreCountedOnce() async {
        let log = CallLog()
        let results = await run(retries: 2, log: log)
        #expect(results.map(\.path) == ["F/fail.flow", "F/flaky.flow", "F/pass.flow", "F/skip.flow", "F/very-flaky.flow"])
        #expect(results.map(\.status) == [.failed, .flaky, .passed, .skipped, .flaky])
        #expect(results.map(\.attempts.count) == [3, 2, 1, 1, 3])
        #expect(log.attempts["F/fail.flow"] == [1, 2, 3])
        #expect(log.attempts["F/skip.flow"] == [1])
        #expect(Set(log.finishedPaths) == Set(results.map(\.path)) && log.finishedPaths.count == 5)
        let summary = FlowRunSummary(results)
        #expect(summary == FlowRunSummary(passed: 1, failed: 1, flaky: 2, skipped: 1))
        #expect(summary.description == "1 passed, 1 failed, 2 flaky, 1 skipped")
        #expect(!summary.succeeded && summary.exitCode == 1)
        #expect(results[1].failureMessage == "timeout")
        #expect(results[4].failureMessage == "two")
        #expect(results[0].failurePosition?.line == 3)
        #expect(results[3].skipReason == "no bridge")
    }

    /// `--retry-isolated`: the same verdicts and attempt numbers, but no retry begins before
    /// every flow's first attempt (on one worker, a flow's retries would follow it), and each
    /// flow is reported once.
    @Test func retriesAloneRunAfterEveryFirstAttempt() async {
        let log = CallLog()
        let results = await run(retries: 2, jobs: 1, retriesAlone: true, log: log)
        #expect(results.map(\.status) == [.failed, .flaky, .passed, .skipped, .flaky])
        #expect(results.map { $0.attempts.map(\.number) } == [[1, 2, 3], [1, 2], [1], [1], [1, 2, 3]])
        #expect(log.attemptOrder.prefix(5).allSatisfy { $0 == 1 } && log.attemptOrder.dropFirst(5).allSatisfy { $0 > 1 })
        #expect(log.attemptOrder.count == 10)
        #expect(Set(log.finishedPaths) == Set(results.map(\.path)) && log.finishedPaths.count == 5)
    }

    @Test func withoutRetriesFlakyFlowsFail() async {
        let results = await run(retries: 0)
        #expect(results.allSatisfy { $0.attempts.count == 1 })
        #expect(FlowRunSummary(results).description == "1 passed, 3 failed, 1 skipped")
    }

    @Test(arguments: [1, 2, 4])
    func concurrencyIsBoundedByJobs(jobs: Int) async {
        let log = CallLog()
        let flows = (0..<12).map { flowFile("F/\($0).flow") }
        let results = await FlowWorkerPool(jobs: jobs).run(flows, job: { flow, attempt in
            log.begin(flow, attempt)
            defer { log.end() }
            await Task.yield()
            return .passed
        })
        #expect(results.count == 12)
        #expect(log.maximumRunning <= jobs)
        #expect(results.map(\.path) == flows.map(\.relativePath).sorted())
    }

    @Test func emptyRunAndDefaults() async {
        #expect(await FlowWorkerPool().run([], job: { _, _ in .passed }).isEmpty)
        #expect(FlowWorkerPool().jobs == ProcessInfo.processInfo.activeProcessorCount)
        #expect(FlowWorkerPool(jobs: 0, retries: -1) == FlowWorkerPool(jobs: 1, retries: 0))
    }

    static let summaries: [(FlowRunSummary, String)] = [
        (FlowRunSummary(), "0 passed, 0 failed"),
        (FlowRunSummary(passed: 3), "3 passed, 0 failed"),
        (FlowRunSummary(passed: 3, failed: 1), "3 passed, 1 failed"),
        (FlowRunSummary(passed: 3, flaky: 2), "3 passed, 0 failed, 2 flaky"),
        (FlowRunSummary(passed: 3, skipped: 4), "3 passed, 0 failed, 4 skipped"),
        (FlowRunSummary(passed: 1, failed: 2, flaky: 3, skipped: 4), "1 passed, 2 failed, 3 flaky, 4 skipped"),
    ]

    @Test(arguments: summaries)
    func summaryLine(summary: FlowRunSummary, line: String) {
        #expect(summary.description == line)
        #expect(summary.succeeded == (summary.failed == 0))
    }

    @Test func progressLinesAndSummary() {
        func result(_ name: String, _ outcomes: [AttemptOutcome], milliseconds: Int) -> FlowResult {
            FlowResult(flow: flowFile("F/\(name).flow"), attempts: outcomes.enumerated().map {
                FlowAttempt(number: $0.offset + 1, duration: .milliseconds(milliseconds), outcome: $0.element)
            })
        }
        let pass = result("a", [.passed], milliseconds: 420)
        let fail = result("b", [.failed(FlowFailure(message: "expected \"Done\" within 5s\nscreen", position: SourcePosition(file: "F/b.flow", line: 4, column: 1)))], milliseconds: 1200)
        let failTwice = result("c", [.failed(FlowFailure(message: "x")), .failed(FlowFailure(message: "y"))], milliseconds: 500)
        let flaky = result("d", [.failed(FlowFailure(message: "x")), .passed], milliseconds: 250)
        let skipped = result("e", [.skipped(reason: "no python3")], milliseconds: 0)
        #expect(FlowProgressReporter.line(for: pass) == "✓ F/a.flow (0.42s)")
        #expect(FlowProgressReporter.line(for: fail) == "✗ F/b.flow (1.20s): expected \"Done\" within 5s")
        #expect(FlowProgressReporter.line(for: failTwice) == "✗ F/c.flow (1.00s, 2 attempts): y")
        #expect(FlowProgressReporter.line(for: flaky) == "~ F/d.flow (flaky, 2 attempts, 0.50s)")
        #expect(FlowProgressReporter.line(for: skipped) == "- F/e.flow (skipped): no python3")
        let summary = FlowProgressReporter.summary(of: [skipped, flaky, fail, pass, failTwice])
        #expect(summary.hasSuffix("\n1 passed, 2 failed, 1 flaky, 1 skipped"))
        #expect(summary.contains("✗ F/b.flow\n    F/b.flow:4:1: expected \"Done\" within 5s\n    screen"))
        #expect(summary.contains("~ F/d.flow: attempt 1 failed: x"))
        let log = CallLog()
        let reporter = FlowProgressReporter { line in log.finish(line) }
        reporter.flowFinished(pass)
        reporter.runFinished([pass])
        #expect(log.finishedPaths == ["✓ F/a.flow (0.42s)", "\n1 passed, 0 failed"])
    }
}

extension FlowWorkerPoolTests {
    /// Cancelling the run (what SIGINT does) cuts the running flow short, starts no other, and
    /// marks both kinds interrupted with the run's reason; a flow that finished keeps its verdict.
    @Test func aCancelledRunStartsNothingMoreAndMarksTheRestInterrupted() async {
        let flows = ["a.flow", "b.flow", "c.flow", "d.flow"].map { FlowFile(path: "/F/\($0)", relativePath: "F/\($0)") }
        let log = CallLog()
        let (running, runningContinuation) = AsyncStream.makeStream(of: Void.self)
        let pool = FlowWorkerPool(jobs: 1, retries: 2)
        let run = Task {
            await pool.run(flows, job: { flow, attempt in
                log.begin(flow, attempt)
                defer { log.end() }
                guard flow.relativePath == "F/b.flow" else { return .passed }
                // Runs until the run is cancelled, as a step's wait does.
                let (cancelled, resume) = AsyncStream.makeStream(of: Void.self)
                await withTaskCancellationHandler {
                    runningContinuation.yield()
                    for await _ in cancelled { break }
                } onCancel: {
                    resume.finish()
                }
                return .interrupted(FlowFailure(message: "expect \"x\": cancelled", position: SourcePosition(file: "F/b.flow", line: 2, column: 1)))
            }, interruption: { "interrupted by SIGINT" })
        }
        for await _ in running { break }
        run.cancel()
        let results = await run.value

        #expect(log.attempts == ["F/a.flow": [1], "F/b.flow": [1]], "nothing starts after the cancellation, nothing is retried")
        #expect(results.map(\.status) == [.passed, .interrupted, .interrupted, .interrupted])
        #expect(results[1].interruption?.message == "interrupted by SIGINT\nexpect \"x\": cancelled")
        #expect(results[1].interruption?.position?.line == 2)
        #expect(results[2].interruption?.message == "interrupted by SIGINT: not started")
        #expect(FlowRunSummary(results).description == "1 passed, 0 failed, 3 interrupted")
        #expect(!FlowRunSummary(results).succeeded)
    }
}
