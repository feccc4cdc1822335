import Foundation
import HarnessCore

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

    /// Creates a pool; `jobs` defaults to the number of active cores.
    public init(jobs: Int = ProcessInfo.processInfo.activeProcessorCount, retries: Int = 0) {
        self.jobs = max(1, jobs)
        self.retries = max(0, retries)
    }

    /// Runs every flow and returns the results sorted by relative path.
    ///
    /// - Parameters:
    ///   - job: one attempt at a flow; the second argument is the attempt number (1-based).
    ///   - onFinish: called once per flow, when its last attempt ends, one call at a time.
    public func run(
        _ flows: [FlowFile],
        job: @escaping @Sendable (FlowFile, Int) async -> AttemptOutcome,
        onFinish: @escaping @Sendable (FlowResult) -> Void = { _ in }
    ) async -> [FlowResult] {
        let retries = self.retries
        var results: [FlowResult] = []
        results.reserveCapacity(flows.count)
        await withTaskGroup(of: FlowResult.self) { group in
            var pending = flows.makeIterator()
            func startNext() {
                guard let flow = pending.next() else { return }
                group.addTask { await Self.runAttempts(of: flow, retries: retries, job: job) }
            }
            for _ in 0..<min(jobs, flows.count) { startNext() }
            while let result = await group.next() {
                onFinish(result)
                results.append(result)
                startNext()
            }
        }
        return results.sorted { $0.path < $1.path }
    }

    private static func runAttempts(
        of flow: FlowFile,
        retries: Int,
        job: @Sendable (FlowFile, Int) async -> AttemptOutcome
    ) async -> FlowResult {
        let clock = ContinuousClock()
        var attempts: [FlowAttempt] = []
        for number in 1...(retries + 1) {
            let start = clock.now
            let outcome = await job(flow, number)
            attempts.append(FlowAttempt(number: number, duration: clock.now - start, outcome: outcome))
            if case .failed = outcome, !Task.isCancelled { continue }
            break
        }
        return FlowResult(flow: flow, attempts: attempts)
    }
}
