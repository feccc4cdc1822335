import Foundation
import HarnessSystem

/// The engine behind a ``PipedSession``: owns our ends of the pipes, the output read so far
/// and the pending waits.
///
/// No thread of its own, and its state lives on the event loop (`EventLoop.shared`), which
/// reads both outputs, writes the input as the program reads it, reaps the child and runs the
/// teardown: `state` (a ``LoopBound``) only the loop touches; `published` holds what
/// synchronous readers see (the output so far, the result), which only the loop writes. The loop's handlers
/// hold the core, never the public session, so dropping the session runs its `deinit`, which
/// terminates the program and releases everything here.
final class PipedSessionCore: TerminatingCore {
    /// What the test did with the session, for its trace.
    let journal = SessionJournal()
    // MARK: - Fixed at launch

    let pid: Int32
    /// The absolute path of the executed file.
    let executable: String
    /// How the session was launched (the default timeout, `onOutput` called with each chunk read).
    let configuration: PipedSession.Configuration
    var defaultTimeout: Duration { configuration.defaultTimeout }
    /// Our end of the program's standard output and error (non-blocking).
    let outputFD: Int32
    let errorFD: Int32
    /// Our end of the program's standard input (non-blocking), or -1 when the program reads a
    /// file or `/dev/null`. The loop closes it once the input is written (or refused).
    let inputFD: Int32
    private let input: Data

    // MARK: - On the loop

    struct State {
        var outputAtEnd = false
        var errorAtEnd = false
        /// The loop's watches of the pipes; nil once that pipe ended (or the input was closed).
        var outputWatch: EventLoop.Watch?
        var errorWatch: EventLoop.Watch?
        var inputWatch: EventLoop.Watch?
        /// How much of the input the program took.
        var inputOffset = 0
        /// Set on the loop when the child was reaped.
        var reapedStatus: ExitStatus?
        /// Set once the program has exited and its output was read: what waits receive.
        var result: PipedProgram.Output?
        /// The result from the moment it is complete, while the exit handlers run and before
        /// `result` (which the waits see) is set.
        var completedOutput: PipedProgram.Output?
        var isClosed = false
        /// Called once with the result, before the waits are resumed (``PipedSession/onExit(_:)``).
        var exitHandlers: [@Sendable (PipedProgram.Output) -> Void] = []

        /// The child was reaped, the loop watches nothing of it and every descriptor is closed.
        var isReleased: Bool {
            reapedStatus != nil && isClosed && outputWatch == nil && errorWatch == nil && inputWatch == nil
        }
    }

    /// What synchronous readers see, written only by the loop: the output read so far (the
    /// loop appends each chunk; a reader copies), then the result.
    private struct Published {
        /// What was read of each output, its newest bytes up to the output limit.
        let standardOutput: ByteRing
        let standardError: ByteRing
        /// The result from the moment it is complete (the rings are empty then: it took them).
        var completedOutput: PipedProgram.Output?
        /// The result as the waits see it.
        var result: PipedProgram.Output?
        var isReleased = false
    }

    let state: LoopBound<State>
    private let published: Locked<Published>
    /// The waits for the result (they wait for nothing else).
    private let waiters = WaiterTable<Void, PipedProgram.Output>()
    /// The child's exit, reported by the loop.
    private let exit = ChildExit()
    /// The teardown, started once; `terminate` waits for it, `terminated` awaits it.
    let termination = Termination()

    init(
        pid: Int32, executable: String, input: Data, inputFD: Int32, outputFD: Int32, errorFD: Int32,
        configuration: PipedSession.Configuration
    ) {
        self.configuration = configuration
        self.pid = pid
        self.executable = executable
        self.input = input
        self.inputFD = inputFD
        self.outputFD = outputFD
        self.errorFD = errorFD
        state = LoopBound(State(), on: .shared)
        published = Locked(Published(
            standardOutput: ByteRing(limit: configuration.outputLimit),
            standardError: ByteRing(limit: configuration.outputLimit)))
        waiters.describeTimeouts(with: self) { $0.timeoutError(after: $1.timeout ?? .zero) }
    }

    /// Registers the pipes and the child with the event loop (on the loop, so that no handler
    /// runs before its watch is in the state).
    func start() {
        EventLoop.shared.execute { [self] in
            let loop = EventLoop.shared
            exit.whenReaped { [self] status in reaped(status) }
            let outputWatch = loop.watch(outputFD, for: .readable) { [self] _ in outputReady(.standardOutput) }
            let errorWatch = loop.watch(errorFD, for: .readable) { [self] _ in outputReady(.standardError) }
            var inputWatch: EventLoop.Watch?
            if inputFD >= 0 {
                if input.isEmpty {
                    Posix.closeIgnoringErrors(inputFD)
                } else {
                    inputWatch = loop.watch(inputFD, for: .writable) { [self] _ in inputWritable() }
                }
            }
            state.withValue { state in
                state.outputWatch = outputWatch
                state.errorWatch = errorWatch
                state.inputWatch = inputWatch
            }
            exit.watch(pid)
        }
    }

    // MARK: - Queries

    var standardOutputSoFar: Data { published.withLock { $0.completedOutput?.standardOutputData ?? $0.standardOutput.copy() } }
    var standardErrorSoFar: Data { published.withLock { $0.completedOutput?.standardErrorData ?? $0.standardError.copy() } }

    var finishedOutput: PipedProgram.Output? { published.withLock { $0.result } }

    /// Whether the child was reaped, the loop watches nothing of it and every descriptor is closed.
    var isFullyReleased: Bool { published.withLock { $0.isReleased } }

    /// Publishes whether the session is released (on the loop, after a change of it).
    private func publishRelease(_ state: State) {
        let released = state.isReleased
        published.withLock { $0.isReleased = released }
    }

    // MARK: - On the loop

    private func descriptor(of stream: PipedSession.Stream) -> Int32 {
        stream == .standardOutput ? outputFD : errorFD
    }

    /// An output is readable (or ended): reads it; at its end the loop stops watching it.
    private func outputReady(_ stream: PipedSession.Stream) {
        if read(stream, maximumReads: 16) { outputEnded(stream) }
    }

    /// Reads `stream` until it has nothing more (EAGAIN) or `maximumReads` chunks were taken.
    /// Returns true at end of file (or on an error, which ends the stream too).
    private func read(_ stream: PipedSession.Stream, maximumReads: Int) -> Bool {
        let fd = descriptor(of: stream)
        return LoopReadBuffer.withBuffer { buffer in
            for _ in 0..<maximumReads {
                let count: Int?
                do {
                    count = try Posix.read(fd, into: buffer)
                } catch {
                    return true
                }
                guard let count else { return false }
                if count == 0 { return true }
                let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
                let firstDrop = published.withLock { published -> Bool in
                    let ring = stream == .standardOutput ? published.standardOutput : published.standardError
                    let before = ring.droppedBytes
                    ring.append(chunk)
                    return before == 0 && ring.droppedBytes > 0
                }
                if firstDrop { journalDrop(stream) }
                configuration.onOutput?(stream, Array(chunk))
            }
            return false
        }
    }

    /// Says in the trace that `stream` went over the output limit (once per stream).
    private func journalDrop(_ stream: PipedSession.Stream) {
        let now = Date()
        journal.record(SessionJournal.Entry(
            text: "\(stream.name) reached the output limit (\(configuration.outputLimit) bytes): its oldest bytes are dropped",
            file: nil, line: nil, start: now, end: now, problem: nil, screen: nil))
    }

    private func outputEnded(_ stream: PipedSession.Stream) {
        let watch = state.withValue { state -> EventLoop.Watch? in
            switch stream {
            case .standardOutput:
                state.outputAtEnd = true
                defer { state.outputWatch = nil }
                return state.outputWatch
            case .standardError:
                state.errorAtEnd = true
                defer { state.errorWatch = nil }
                return state.errorWatch
            }
        }
        if let watch { EventLoop.shared.unwatch(watch) }
        settle()
    }

    /// The input pipe is writable (or the program closed it): writes the next chunk, and
    /// closes the pipe once everything was written or the program refused it (EPIPE).
    private func inputWritable() {
        let offset = state.value.inputOffset
        let end = min(input.count, offset + 64 * 1024)
        let result: Result<Int?, SystemError> = input[offset..<end].withUnsafeBytes { chunk in
            do throws(SystemError) { return .success(try Posix.writeWithoutSignal(inputFD, chunk)) } catch { return .failure(error) }
        }
        switch result {
        case .success(let written?):
            let done = state.withValue { state in
                state.inputOffset += written
                return state.inputOffset >= input.count
            }
            if done { closeInput() }
        case .success(nil):
            break  // the pipe is full: wait for the program to read
        case .failure:
            closeInput()  // EPIPE: the program exited (or closed its input) without reading it all
        }
    }

    /// Stops writing the input and closes its pipe (the program reads end of file).
    private func closeInput() {
        guard let watch = state.withValue({ state in defer { state.inputWatch = nil }; return state.inputWatch }) else { return }
        EventLoop.shared.unwatch(watch, closing: true)
        publishRelease(state.value)
    }

    /// The loop reaped the child (the first handler of `exit`).
    private func reaped(_ status: ExitStatus) {
        state.value.reapedStatus = status
        publishRelease(state.value)
        settle()
    }

    /// Once the program exited and its outputs ended, unread input has no reader left: the
    /// pipe is closed; and the result is delivered.
    private func settle() {
        let done = state.withValue { $0.reapedStatus != nil && $0.outputAtEnd && $0.errorAtEnd }
        guard done else { return }
        closeInput()
        publishIfComplete()
    }

    // MARK: - The result

    /// Delivers the result once the program was reaped and both outputs ended (or, with
    /// `force`, at teardown with whatever was read), resuming every pending wait.
    private func publishIfComplete(force: Bool = false) {
        let completed = state.withValue { state -> (PipedProgram.Output, [@Sendable (PipedProgram.Output) -> Void])? in
            guard state.completedOutput == nil, let status = state.reapedStatus,
                  force || (state.outputAtEnd && state.errorAtEnd) else { return nil }
            // The output takes the rings' buffers (nothing is read after this): the bytes are
            // kept once.
            let output = published.withLock { published in
                let output = PipedProgram.Output(
                    status: status, standardOutputData: published.standardOutput.take(),
                    standardErrorData: published.standardError.take(),
                    droppedStandardOutputBytes: published.standardOutput.droppedBytes,
                    droppedStandardErrorBytes: published.standardError.droppedBytes)
                published.completedOutput = output
                return output
            }
            state.completedOutput = output
            defer { state.exitHandlers = [] }
            return (output, state.exitHandlers)
        }
        guard let (output, handlers) = completed else { return }
        // The handlers run before the result is visible, so no wait (one begun meanwhile
        // included) returns before them.
        for handler in handlers { handler(output) }
        state.value.result = output
        published.withLock { $0.result = output }
        for waiter in waiters.removeAll() { waiter.resume(returning: output) }
    }

    /// Runs `handler` once with the result, on the loop: when the loop completes it, or at once
    /// when it is already there.
    func onExit(_ handler: @escaping @Sendable (PipedProgram.Output) -> Void) {
        EventLoop.shared.onLoop { [self] in
            let output = state.withValue { state -> PipedProgram.Output? in
                if let completedOutput = state.completedOutput { return completedOutput }
                state.exitHandlers.append(handler)
                return nil
            }
            if let output { handler(output) }
        }
    }

    // MARK: - Waiting

    /// Waits for the result; `timeout` nil waits without limit.
    func wait(timeout: Duration?) async throws -> PipedProgram.Output {
        try await waiters.wait(description: "the program to exit", timeout: timeout) { [self] registration in
            if let result = state.value.result {
                registration.resume(returning: result)
            } else {
                waiters.insert(registration, ())
            }
        }
    }

    /// What a wait that timed out is told: the program is still running, or it exited and
    /// something (a background process) keeps its outputs open.
    private func timeoutError(after timeout: Duration) -> PipedSessionError {
        let (output, error) = published.withLock { ($0.standardOutput.copy(), $0.standardError.copy()) }
        let outputTail = PrintableBytes.tail("stdout", of: output)
        let errorTail = PrintableBytes.tail("stderr", of: error)
        return state.withValue { state in
            if let status = state.reapedStatus {
                return .outputStillOpen(executable: executable, status: status, after: timeout,
                                        standardOutputTail: outputTail, standardErrorTail: errorTail)
            }
            return .timeout(executable: executable, after: timeout, standardOutputTail: outputTail, standardErrorTail: errorTail)
        }
    }

    // MARK: - Terminate

    /// Starts the teardown once (later calls join it): ends the program's whole process group
    /// (SIGTERM, then SIGKILL after `grace`), then stops reading and closes the pipes, all on
    /// the event loop.
    func startTerminating(grace: Duration) {
        guard termination.begin() else { return }
        // The program itself too, in case it left its process group (it is our child and not
        // reaped yet, so its pid cannot name another process).
        ChildProcess.endProcessGroup(of: pid, signals: [SIGTERM], signalLeaderToo: true, grace: grace, exit: exit) {
            [self] in stopIO()
        }
    }

    /// What a caller blocked on the loop was doing (``TerminatingCore``).
    var terminateOperation: String { "PipedSession.terminate()" }

    /// On the loop, once the process group ended: takes what is already in the pipes without
    /// waiting for more, stops watching, closes every descriptor exactly once, and delivers
    /// the result with what was read.
    private func stopIO() {
        for stream in PipedSession.Stream.allCases {
            let open = state.withValue { stream == .standardOutput ? $0.outputWatch != nil : $0.errorWatch != nil }
            if open, read(stream, maximumReads: 256) { outputEnded(stream) }
        }
        closeInput()
        let watches = state.withValue { state in
            state.isClosed = true
            defer { state.outputWatch = nil; state.errorWatch = nil }
            return [state.outputWatch, state.errorWatch].compactMap { $0 }
        }
        for watch in watches { EventLoop.shared.unwatch(watch) }
        Posix.closeIgnoringErrors(outputFD)
        Posix.closeIgnoringErrors(errorFD)
        publishIfComplete(force: true)
        waiters.close()
        publishRelease(state.value)
        termination.finish(state.withValue { $0.result?.status ?? $0.reapedStatus ?? .exited(-1) })
    }
}
