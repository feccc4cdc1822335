import Foundation
import HarnessCore
import HarnessSteps

/// Runs flows on `jobs` concurrent workers, retrying failures up to `retries` times.
///
/// Generic over the job: the closure runs one attempt of one flow and says how it ended; the
/// pool times it, retries failed attempts (never skipped ones), reports each flow when it is
/// done, and returns the results sorted by relative path whatever the finishing order.
///
/// ```swift
/// let pool = FlowWorkerPool(jobs: 4, retries: 1)
/// let results = await pool.run(flows, job: { flow, attempt in await execute(flow) },
///                              onFinish: reporter.flowFinished)
/// ```
public struct FlowWorkerPool: Sendable, Hashable {
    /// How many flows run at once (at least 1).
    public var jobs: Int
    /// How many times a failed flow is run again (0: no retry).
    public var retries: Int
    /// Whether the retries wait until every flow ran once, then run one at a time on one worker
    /// (`--retry-isolated`): a flow that fails only while others run beside it (a shared port, a
    /// loaded machine) gets its retries alone. A flow is then reported (`onFinish`) once its last
    /// attempt ended, and attempt numbers go on from the first run (a retry is attempt 2).
    public var retriesAlone: Bool

    /// Creates a pool; `jobs` defaults to the number of active cores.
    public init(jobs: Int = ProcessInfo.processInfo.activeProcessorCount, retries: Int = 0, retriesAlone: Bool = false) {
        self.jobs = max(1, jobs)
        self.retries = max(0, retries)
        self.retriesAlone = retriesAlone
    }

    /// Runs every flow and returns the results sorted by relative path. A failed flow runs
    /// again at once on its worker, or, with ``retriesAlone``, after every flow ran once.
    ///
    /// When the task running this is cancelled (the run was interrupted), no flow starts any
    /// more, the running attempts are cancelled (their teardown still runs), and every flow that
    /// did not finish gets an ``AttemptOutcome/interrupted(_:)`` attempt whose message starts
    /// with `interruption()` (`interrupted by SIGINT`); one never started says so. Flows that
    /// finished keep their results.
    ///
    /// - Parameters:
    ///   - job: one attempt at a flow; the second argument is the attempt number (1-based).
    ///   - onFinish: called once per flow, when its last attempt ends, one call at a time.
    ///   - interruption: why the run was cancelled, asked when it was.
    public func run(
        _ flows: [FlowFile],
        job: @escaping @Sendable (FlowFile, Int) async -> AttemptOutcome,
        onFinish: @escaping @Sendable (FlowResult) -> Void = { _ in },
        interruption: @escaping @Sendable () -> String = { "interrupted" }
    ) async -> [FlowResult] {
        if retriesAlone, retries > 0 { return await runRetryingAlone(flows, job: job, onFinish: onFinish, interruption: interruption) }
        let retries = self.retries
        var results: [FlowResult] = []
        results.reserveCapacity(flows.count)
        var notStarted: [FlowFile] = []
        await withTaskGroup(of: FlowResult.self) { group in
            var pending = flows.makeIterator()
            func startNext() {
                guard let flow = pending.next() else { return }
                guard !Task.isCancelled else { return notStarted.append(flow) }
                group.addTask { await Self.runAttempts(of: flow, retries: retries, job: job, interruption: interruption) }
            }
            for _ in 0..<min(jobs, flows.count) { startNext() }
            while let result = await group.next() {
                onFinish(result)
                results.append(result)
                startNext()
            }
            while let flow = pending.next() { notStarted.append(flow) }
        }
        for flow in notStarted {
            let outcome = AttemptOutcome.interrupted(FlowFailure(message: "\(interruption()): not started"))
            let result = FlowResult(flow: flow, attempts: [FlowAttempt(number: 1, duration: .zero, outcome: outcome)])
            onFinish(result)
            results.append(result)
        }
        return results.sorted { $0.path < $1.path }
    }

    private static func runAttempts(
        of flow: FlowFile,
        retries: Int,
        job: @Sendable (FlowFile, Int) async -> AttemptOutcome,
        interruption: @Sendable () -> String
    ) async -> FlowResult {
        let clock = ContinuousClock()
        var attempts: [FlowAttempt] = []
        for number in 1...(retries + 1) {
            let start = clock.now
            var outcome = await job(flow, number)
            if case .interrupted(var cause) = outcome {
                // The job says which step was cut short; the run says why.
                cause.message = "\(interruption())\n\(cause.message)"
                outcome = .interrupted(cause)
            }
            attempts.append(FlowAttempt(number: number, duration: clock.now - start, outcome: outcome))
            if case .failed = outcome, !Task.isCancelled { continue }
            break
        }
        return FlowResult(flow: flow, attempts: attempts)
    }
}
