import HarnessCore

/// Sequential cycles of launch, wait for the first screen text, teardown, with the process's
/// figures taken at the start, every quarter and at the end.
struct LaunchCycles: Sendable {
    struct Sample: Sendable {
        /// Cycles done when the sample was taken.
        let cycle: Int
        let figures: ProcessFigures
        /// Seconds since the first counted cycle began.
        let seconds: Double
    }

    let warmUp: Int
    let samples: [Sample]

    var first: Sample { samples[0] }
    var last: Sample { samples[samples.count - 1] }
    var cyclesPerSecond: Double { Double(last.cycle) / last.seconds }

    static func run(cycles: Int, timeout: Duration, registry: SessionRegistry) async throws -> LaunchCycles {
        let configuration = EchoPrograms.ready(timeout: timeout)
        // A few cycles first, not counted, so lazily created state (the concurrency pool, the
        // dispatch threads, the allocator's arenas) is in the starting figures.
        let warmUp = min(50, max(5, cycles / 100))
        for cycle in 1...warmUp { try await one(configuration, step: "warm-up cycle \(cycle)", registry: registry) }

        let clock = ContinuousClock()
        let start = clock.now
        let checkpoints = Set((1...4).map { cycles * $0 / 4 })
        var samples = [Sample(cycle: 0, figures: try ProcessFigures.current(), seconds: 0)]
        for cycle in 1...cycles {
            try await one(configuration, step: "cycle \(cycle) of \(cycles)", registry: registry)
            if checkpoints.contains(cycle) {
                let seconds = (clock.now - start).seconds
                samples.append(Sample(cycle: cycle, figures: try ProcessFigures.current(), seconds: seconds))
            }
        }
        return LaunchCycles(warmUp: warmUp, samples: samples)
    }

    /// Launch, wait for "ready" on the screen, end.
    private static func one(_ configuration: TerminalSession.Configuration, step: String, registry: SessionRegistry) async throws {
        let session = try registry.launch(configuration, step: step)
        defer { registry.end(session) }
        do { try await session.waitFor(text: "ready") } catch {
            throw ScaleBenchmarkError.session(step, underlying: error)
        }
    }
}
