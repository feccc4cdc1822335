import HarnessCore
import Synchronization

/// Every session the benchmark has launched and not yet ended, so that a failure anywhere (a
/// wait that times out, a launch that fails in another task) still ends them all before the
/// program exits: `exit` runs no deinitializers.
final class SessionRegistry: Sendable {
    private struct State {
        var live: [ObjectIdentifier: TerminalSession] = [:]
        var closed = false
    }

    private let state = Mutex(State())

    /// Launches a session and keeps it until ``end(_:)``; once ``endAll()`` has run, a session
    /// launched meanwhile is ended at once and the launch throws.
    func launch(_ configuration: TerminalSession.Configuration, step: String) throws(ScaleBenchmarkError) -> TerminalSession {
        let session: TerminalSession
        do { session = try TerminalSession.launch(configuration) } catch {
            throw .session(step + ": launch", underlying: error)
        }
        return try keep(session, step: step)
    }

    /// ``launch(_:step:)`` from a task: the spawn runs on the harness's blocking worker, so no
    /// thread of the pool blocks (Dispatch would start another for the tasks queued behind it).
    func launched(_ configuration: TerminalSession.Configuration, step: String) async throws(ScaleBenchmarkError) -> TerminalSession {
        let session: TerminalSession
        do { session = try await TerminalSession.launched(configuration) } catch {
            throw .session(step + ": launch", underlying: error)
        }
        return try keep(session, step: step)
    }

    private func keep(_ session: TerminalSession, step: String) throws(ScaleBenchmarkError) -> TerminalSession {
        let accepted = state.withLock { state in
            guard !state.closed else { return false }
            state.live[ObjectIdentifier(session)] = session
            return true
        }
        guard accepted else {
            session.terminate()
            throw .unexpected("\(step): launched while the benchmark was stopping")
        }
        return session
    }

    /// Ends one session and forgets it.
    func end(_ session: TerminalSession) {
        session.terminate()
        _ = state.withLock { $0.live.removeValue(forKey: ObjectIdentifier(session)) }
    }

    /// The sessions still live.
    var liveCount: Int { state.withLock { $0.live.count } }

    /// Ends every live session; no more can be launched afterwards.
    func endAll() {
        let sessions = state.withLock { state in
            state.closed = true
            defer { state.live = [:] }
            return Array(state.live.values)
        }
        for session in sessions { session.terminate() }
    }
}
