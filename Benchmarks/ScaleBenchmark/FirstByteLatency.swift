import HarnessCore

/// Launch to first screen text through the harness, beside the same program on a raw pty
/// launched with posix_spawn, alternating in blocks so that load from elsewhere hits both alike.
struct FirstByteLatency: Sendable {
    let ours: LatencySummary
    /// The part of `ours` until `TerminalSession.launch` returned (the spawn).
    let oursLaunchReturned: LatencySummary
    let raw: LatencySummary
    /// The process's figures before the first launch (a fork copies the page tables of this many bytes).
    let before: ProcessFigures
    let warmUp: Int

    static func run(launches: Int, timeout: Duration, registry: SessionRegistry) async throws -> FirstByteLatency {
        let configuration = EchoPrograms.ready(timeout: timeout)
        let timeoutMilliseconds = Int32(clamping: Int(timeout.seconds * 1000))
        let environment = EchoPrograms.environmentStrings
        let clock = ContinuousClock()
        func rawLaunch() throws -> UInt64 {
            try RawPseudoTerminalLaunch.timeToText(
                "ready", arguments: EchoPrograms.readyArguments, environment: environment,
                timeoutMilliseconds: timeoutMilliseconds)
        }
        func ourLaunch(_ step: String) async throws -> (launched: UInt64, text: UInt64) {
            let start = clock.now
            let session = try registry.launch(configuration, step: step)
            let launched = clock.now - start
            defer { registry.end(session) }
            do { try await session.waitFor(text: "ready") } catch {
                throw ScaleBenchmarkError.session(step, underlying: error)
            }
            return (launched.nanoseconds, (clock.now - start).nanoseconds)
        }

        let before = try ProcessFigures.current()
        let warmUp = min(20, max(2, launches / 10))
        for index in 1...warmUp {
            _ = try rawLaunch()
            _ = try await ourLaunch("first-byte warm-up launch \(index)")
        }
        var rawSamples: [UInt64] = []
        var ourSamples: [UInt64] = []
        var launchSamples: [UInt64] = []
        let block = 10
        while ourSamples.count < launches {
            let size = min(block, launches - ourSamples.count)
            for _ in 0..<size { rawSamples.append(try rawLaunch()) }
            for _ in 0..<size {
                let sample = try await ourLaunch("first-byte launch \(ourSamples.count + 1)")
                launchSamples.append(sample.launched)
                ourSamples.append(sample.text)
            }
        }
        return FirstByteLatency(
            ours: LatencySummary(ourSamples), oursLaunchReturned: LatencySummary(launchSamples),
            raw: LatencySummary(rawSamples), before: before, warmUp: warmUp)
    }
}
