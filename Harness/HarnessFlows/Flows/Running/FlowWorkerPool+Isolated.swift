import HarnessSteps
extension FlowWorkerPool {
    /// ``retriesAlone``: every flow once on ``jobs`` workers, then the ones that failed again,
    /// one at a time on one worker, up to ``retries`` more times each.
    func runRetryingAlone(
        _ flows: [FlowFile],
        job: @escaping @Sendable (FlowFile, Int) async -> AttemptOutcome,
        onFinish: @escaping @Sendable (FlowResult) -> Void,
        interruption: @escaping @Sendable () -> String
    ) async -> [FlowResult] {
        let first = await FlowWorkerPool(jobs: jobs).run(flows, job: job, onFinish: { result in
            if result.status != .failed { onFinish(result) }
        }, interruption: interruption)
        let failed = first.filter { $0.status == .failed }.map(\.flow)
        let retried = failed.isEmpty ? [] : await FlowWorkerPool(jobs: 1, retries: retries - 1).run(
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
