import HarnessSteps
extension FlowWorkerPool {
    /// Runs every flow once on ``jobs`` workers, then the ones that failed again, one at a time
    /// on one worker, up to ``retries`` more times each: a flow that fails only while others run
    /// beside it (a shared port, a loaded machine) gets its retries alone. A flow is reported
    /// (`onFinish`) once its last attempt ended; the results are sorted as ``run(_:job:onFinish:interruption:)``
    /// sorts them, and attempt numbers go on from the first run (a retry is attempt 2).
    public func runRetryingIsolated(
        _ flows: [FlowFile],
        job: @escaping @Sendable (FlowFile, Int) async -> AttemptOutcome,
        onFinish: @escaping @Sendable (FlowResult) -> Void = { _ in },
        interruption: @escaping @Sendable () -> String = { "interrupted" }
    ) async -> [FlowResult] {
        let first = await FlowWorkerPool(jobs: jobs, retries: 0).run(flows, job: job, onFinish: { result in
            if result.status != .failed { onFinish(result) }
        }, interruption: interruption)
        let failed = first.filter { $0.status == .failed }.map(\.flow)
        let retried = failed.isEmpty || retries == 0 ? [] : await FlowWorkerPool(jobs: 1, retries: retries - 1).run(
            failed, job: { flow, attempt in await job(flow, attempt + 1) }, interruption: interruption)
        let again = Dictionary(retried.map { ($0.path, $0.attempts) }, uniquingKeysWith: { first, _ in first })
        return first.map { result in
            guard result.status == .failed else { return result }
            var merged = result
            merged.attempts += (again[result.path] ?? []).map { attempt in
                var renumbered = attempt
                renumbered.number += result.attempts.count
                return renumbered
            }
            onFinish(merged)
            return merged
        }
    }
}
