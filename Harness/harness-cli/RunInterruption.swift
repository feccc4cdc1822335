import Foundation
import HarnessSystem

/// SIGINT and SIGTERM during `harness run` and `harness swift-test` (what Ctrl-C and a CI's
/// cancellation send): the first cancels the run's task, so that no flow or test starts any
/// more, the running ones are cut short and torn down (each program's process group ended with
/// the usual grace), and the command writes its files for what finished, marks the rest
/// interrupted and exits 130 (SIGINT) or 143 (SIGTERM). A second signal ends the process at
/// once with that status; its programs die with it (their parent-death signal).
///
/// The handler only writes the signal's number to a pipe (CHarnessSystem); the event loop
/// watches the pipe and does the rest, so nothing unsafe runs in a signal handler.
final class RunInterruption: Sendable {
    private struct State {
        var signal: Int32?
        var task: Task<Void, Never>?
    }

    private let command: String
    private let state = Locked(State())

    /// Starts watching SIGINT and SIGTERM for `command` (its name in messages). Once per process.
    init(command: String) throws {
        self.command = command
        let pipe = try Posix.installSignalPipe(for: [SIGINT, SIGTERM])
        try Posix.setNonBlocking(pipe)
        _ = EventLoop.shared.watch(pipe, for: .readable) { [self] _ in
            for signal in Posix.readSignals(pipe) { received(signal) }
        }
    }

    /// The first signal received, if any.
    var signal: Int32? { state.withLock { $0.signal } }

    /// What interrupted flows and tests are marked with: `interrupted by SIGINT`.
    var reason: String { "interrupted by \(signal.flatMap(Posix.signalName) ?? "a signal")" }

    /// The exit status after a signal (128 + its number: 130, 143), nil without one.
    var exitStatus: Int32? { signal.map { 128 + $0 } }

    /// Runs `body` as a task that the first signal cancels (at once when one came before), and
    /// returns its result once it returned.
    func run<T: Sendable>(_ body: @escaping @Sendable () async -> T) async -> T {
        let result = Locked<T?>(nil)
        let task = Task {
            let value = await body()
            result.withLock { $0 = value }
        }
        let cancelNow = state.withLock { state -> Bool in
            state.task = task
            return state.signal != nil
        }
        if cancelNow { task.cancel() }
        await task.value
        state.withLock { $0.task = nil }
        return result.withLock { $0! }
    }

    /// On the loop, for each signal read from the pipe.
    private func received(_ signal: Int32) {
        let (first, task) = state.withLock { state -> (Bool, Task<Void, Never>?) in
            guard state.signal == nil else { return (false, nil) }
            state.signal = signal
            return (true, state.task)
        }
        let name = Posix.signalName(signal) ?? "signal \(signal)"
        guard first else {
            StandardStreams.writeError("\(command): \(name) again: stopping at once\n")
            Posix.exitImmediately(128 + signal)
        }
        StandardStreams.writeError("\(command): \(name): ending the running programs and writing the reports (\(name) again stops at once)\n")
        task?.cancel()
    }
}

/// The children the harness adopted as a child subreaper (descendants of its programs whose
/// parents exited) that are still alive when a command ends: a session's teardown ends those of
/// its own session, this ends any left (one whose environment lost the session's marker), and
/// reaps them.
enum AdoptedChildren {
    /// Makes the process a subreaper (Linux), so that such descendants are reparented to it.
    static func adopt() {
        Descendants.becomeSubreaper()
    }

    /// SIGKILL to every living adopted child, then reaps them and the exited ones.
    static func endAll() {
        guard Descendants.isSubreaper else { return }
        for _ in 0..<8 {
            let adopted = Descendants.adopted(marker: nil)
            if adopted.isEmpty { break }
            for pid in adopted { _ = try? Posix.kill(pid, SIGKILL) }
            for pid in adopted { _ = try? Posix.waitForTermination(pid) }
        }
        Descendants.reapAdoptedZombies()
    }
}
