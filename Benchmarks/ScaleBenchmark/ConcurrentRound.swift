import HarnessCore

/// N line-echo sessions live at once, each typing lines and waiting for every answer on its
/// screen, with the process's figures taken while all N are live.
struct ConcurrentRound: Sendable {
    let sessions: Int
    /// Taken once every session has shown "ready", typed its lines and seen every answer.
    let live: ProcessFigures
    /// The most threads seen by any session right after its last answer.
    let peakThreads: Int
    /// From the first launch until the last session saw its last answer.
    let upSeconds: Double
    /// Ending all N sessions one after the other.
    let teardownSeconds: Double
    /// Taken after the teardown.
    let after: ProcessFigures

    static func run(sessions count: Int, lines: Int, timeout: Duration, registry: SessionRegistry) async throws -> ConcurrentRound {
        let clock = ContinuousClock()
        let start = clock.now
        let configuration = EchoPrograms.lineEcho(timeout: timeout)
        var sessions: [TerminalSession] = []
        var peakThreads = 0
        try await withThrowingTaskGroup(of: (TerminalSession, Int).self) { group in
            for index in 1...count {
                group.addTask {
                    let step = "\(count) concurrent sessions, session \(index)"
                    let session = try await registry.launched(configuration, step: step)
                    do {
                        try await session.waitFor(text: "ready")
                        for line in 1...lines {
                            // The dot ends the word, so "s1l1." is not found inside "s1l10.".
                            let word = "s\(index)l\(line)."
                            try session.type(word + "\r")
                            try await session.waitFor(text: "got \(word)")
                        }
                    } catch {
                        throw ScaleBenchmarkError.session(step, underlying: error)
                    }
                    return (session, try ProcessFigures.current().threads)
                }
            }
            do {
                for try await (session, threads) in group {
                    sessions.append(session)
                    peakThreads = max(peakThreads, threads)
                }
            } catch {
                // End every session now, so the other tasks' waits end at once instead of at
                // their timeouts; the group then awaits them.
                registry.endAll()
                throw error
            }
        }
        let up = clock.now - start
        let live = try ProcessFigures.current()
        guard registry.liveCount == count else {
            throw ScaleBenchmarkError.unexpected("\(registry.liveCount) sessions live, expected \(count)")
        }

        let teardownStart = clock.now
        for session in sessions { registry.end(session) }
        let teardown = clock.now - teardownStart
        return ConcurrentRound(
            sessions: count, live: live, peakThreads: peakThreads, upSeconds: up.seconds,
            teardownSeconds: teardown.seconds, after: try ProcessFigures.current())
    }
}
