import Dispatch
import Foundation
import HarnessSystem

/// The engine behind a ``PipedSession``: owns our ends of the pipes, the I/O and reaper
/// threads, the output read so far and the pending waits. Mutable shared state is guarded by
/// `condition`'s lock.
///
/// The threads hold the core, never the public session, so dropping the session runs its
/// `deinit`, which terminates the program and releases everything here.
final class PipedSessionCore: @unchecked Sendable {
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
    /// file or `/dev/null`. Owned by the I/O thread, which closes it once the input is written.
    let inputFD: Int32
    private let input: Data
    /// The I/O thread: polls the pipes and wakes up when a stop is requested.
    let loop: ReadinessLoop

    // MARK: - Guarded by `condition`

    let condition = NSCondition()
    private var standardOutput = Data()
    private var standardError = Data()
    private var outputAtEnd = false
    private var errorAtEnd = false
    /// Set by the reaper when `waitpid` returned.
    private var reapedStatus: ExitStatus?
    /// Set once the program has exited and its output was read: what waits receive.
    private var result: PipedProgram.Output?
    /// The result from the moment it is complete, while the exit handlers run and before
    /// `result` (which the waits see) is set.
    private var completedOutput: PipedProgram.Output?
    private var readerFinished = false
    private var reaperFinished = false
    private var stopRequested = false
    private(set) var isClosed = false
    /// Called once with the result, before the waits are resumed (``PipedSession/onExit(_:)``).
    private var exitHandlers: [@Sendable (PipedProgram.Output) -> Void] = []
    /// The waits for the result (they wait for nothing else).
    private let waiters = WaiterTable<Void, PipedProgram.Output>()

    /// Serialises `terminate` calls; the second one returns the first one's status.
    private let terminateOnce = ChildProcess.TerminateOnce()

    init(
        pid: Int32, executable: String, input: Data, inputFD: Int32, outputFD: Int32, errorFD: Int32,
        loop: ReadinessLoop, configuration: PipedSession.Configuration
    ) {
        self.configuration = configuration
        self.pid = pid
        self.executable = executable
        self.input = input
        self.inputFD = inputFD
        self.outputFD = outputFD
        self.errorFD = errorFD
        self.loop = loop
        waiters.describeTimeouts(with: self) { $0.timeoutError(after: $1.timeout ?? .zero) }
    }

    /// Starts the I/O and reaper threads.
    func start() {
        loop.start(name: "PipedSession.io(\(pid))", stackSize: 512 << 10) { [self] _ in runIO() }
        ChildProcess.startReaper(of: pid, name: "PipedSession.reaper(\(pid))") { [self] in reaped($0) }
    }

    @inline(__always)
    private func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }

    // MARK: - Queries

    var standardOutputSoFar: Data { withLock { standardOutput } }
    var standardErrorSoFar: Data { withLock { standardError } }
    var finishedOutput: PipedProgram.Output? { withLock { result } }

    /// Whether both helper threads have ended and every descriptor is closed.
    var isFullyReleased: Bool { withLock { readerFinished && reaperFinished && isClosed } }

    // MARK: - I/O thread

    /// Polls the wake-up pipe, both outputs (until end of file) and the input (until written or
    /// refused); leaves when the outputs ended and the input no longer matters, or when
    /// `terminate` asks.
    private func runIO() {
        let capacity = 64 * 1024
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        var outputOpen = true
        var errorOpen = true
        var inputOpen = inputFD >= 0
        var inputOffset = 0

        func closeInput() {
            guard inputOpen else { return }
            inputOpen = false
            Posix.closeIgnoringErrors(inputFD)
        }
        if inputOpen, input.isEmpty { closeInput() }

        while true {
            let (stop, reaped) = withLock { (stopRequested, reapedStatus != nil) }
            if stop { break }
            // Once the program exited and its outputs ended, unread input has no reader left.
            if !outputOpen, !errorOpen, !inputOpen || reaped { break }

            var requests: [(fd: Int32, events: Posix.PollEvents)] = []
            if outputOpen { requests.append((outputFD, .readable)) }
            if errorOpen { requests.append((errorFD, .readable)) }
            if inputOpen { requests.append((inputFD, .writable)) }
            let events: [Posix.PollEvents]
            do {
                events = try loop.wait(requests, timeoutMilliseconds: -1)
            } catch {
                break  // cannot happen with valid descriptors; leave rather than spin
            }
            var index = 0
            let ready = Posix.PollEvents.failures.union(.readable)
            if outputOpen {
                if !events[index].intersection(ready).isEmpty, read(outputFD, buffer, maximumReads: 16) {
                    outputOpen = false
                    withLock { outputAtEnd = true }
                }
                index += 1
            }
            if errorOpen {
                if !events[index].intersection(ready).isEmpty, read(errorFD, buffer, maximumReads: 16) {
                    errorOpen = false
                    withLock { errorAtEnd = true }
                }
                index += 1
            }
            if inputOpen, !events[index].intersection(Posix.PollEvents.failures.union(.writable)).isEmpty {
                let end = min(input.count, inputOffset + capacity)
                let result: Result<Int?, SystemError> = input[inputOffset..<end].withUnsafeBytes { chunk in
                    do throws(SystemError) { return .success(try Posix.writeWithoutSignal(inputFD, chunk)) } catch { return .failure(error) }
                }
                switch result {
                case .success(let written?):
                    inputOffset += written
                    if inputOffset >= input.count { closeInput() }
                case .success(nil):
                    break  // the pipe is full: wait for the program to read
                case .failure:
                    closeInput()  // EPIPE: the program exited (or closed its input) without reading it all
                }
            }
            if !outputOpen, !errorOpen { publishIfComplete() }
        }
        // Stopping (terminate): take what is already in the pipes without waiting for more.
        if outputOpen, read(outputFD, buffer, maximumReads: 256) { withLock { outputAtEnd = true } }
        if errorOpen, read(errorFD, buffer, maximumReads: 256) { withLock { errorAtEnd = true } }
        closeInput()
        withLock {
            readerFinished = true
            condition.broadcast()
        }
        publishIfComplete()
    }

    /// Reads `fd` until it has nothing more (EAGAIN) or `maximumReads` chunks were taken.
    /// Returns true at end of file (or on an error, which ends the stream too).
    private func read(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, maximumReads: Int) -> Bool {
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
            let stream: PipedSession.Stream = fd == outputFD ? .standardOutput : .standardError
            withLock {
                switch stream {
                case .standardOutput: standardOutput.append(contentsOf: chunk)
                case .standardError: standardError.append(contentsOf: chunk)
                }
            }
            configuration.onOutput?(stream, Array(chunk))
        }
        return false
    }

    private func wakeIOLocked() {
        guard !isClosed else { return }
        loop.wake()
    }

    // MARK: - Reaper thread

    /// Called on the reaper thread once the child was reaped.
    private func reaped(_ status: ExitStatus) {
        withLock {
            reapedStatus = status
            reaperFinished = true
            condition.broadcast()
            wakeIOLocked()
        }
        publishIfComplete()
    }

    // MARK: - The result

    /// Delivers the result once the program was reaped and both outputs ended (or, with
    /// `force`, at teardown with whatever was read), resuming every pending wait.
    private func publishIfComplete(force: Bool = false) {
        condition.lock()
        guard completedOutput == nil, let status = reapedStatus, force || (outputAtEnd && errorAtEnd) else {
            condition.unlock()
            return
        }
        let output = PipedProgram.Output(status: status, standardOutputData: standardOutput, standardErrorData: standardError)
        completedOutput = output
        let handlers = exitHandlers
        exitHandlers = []
        condition.unlock()
        // The handlers run before the result is visible, so no wait (one begun meanwhile
        // included) returns before them.
        for handler in handlers { handler(output) }
        condition.lock()
        result = output
        let pending = waiters.removeAll()
        condition.broadcast()
        condition.unlock()
        for waiter in pending { waiter.resume(returning: output) }
    }

    /// Runs `handler` once with the result: on the thread that completes it, or at once (on
    /// this thread) when it is already there.
    func onExit(_ handler: @escaping @Sendable (PipedProgram.Output) -> Void) {
        let output: PipedProgram.Output? = withLock {
            if let completedOutput { return completedOutput }
            exitHandlers.append(handler)
            return nil
        }
        if let output { handler(output) }
    }

    // MARK: - Waiting

    /// Waits for the result; `timeout` nil waits without limit.
    func wait(timeout: Duration?) async throws -> PipedProgram.Output {
        try await waiters.wait(description: "the program to exit", timeout: timeout) { registration in
            condition.lock()
            if let result {
                condition.unlock()
                registration.resume(returning: result)
                return
            }
            waiters.insert(registration, ())
            condition.unlock()
        }
    }

    /// What a wait that timed out is told: the program is still running, or it exited and
    /// something (a background process) keeps its outputs open.
    private func timeoutError(after timeout: Duration) -> PipedSessionError {
        withLock {
            let outputTail = PrintableBytes.tail("stdout", of: standardOutput)
            let errorTail = PrintableBytes.tail("stderr", of: standardError)
            if let status = reapedStatus {
                return .outputStillOpen(executable: executable, status: status, after: timeout,
                                        standardOutputTail: outputTail, standardErrorTail: errorTail)
            }
            return .timeout(executable: executable, after: timeout, standardOutputTail: outputTail, standardErrorTail: errorTail)
        }
    }

    // MARK: - Terminate

    /// Ends the program's whole process group (SIGTERM, then SIGKILL after `grace`), stops the
    /// I/O thread, closes the descriptors. Idempotent; blocks until done.
    @discardableResult
    func terminate(grace: Duration) -> ExitStatus {
        terminateOnce.run {
            // The program itself too, in case it left its process group (it is our child and
            // not reaped yet, so its pid cannot name another process).
            ChildProcess.endProcessGroup(of: pid, signals: [SIGTERM], signalLeaderToo: true, grace: grace) { deadline in
                condition.wait(until: deadline) { reapedStatus != nil }
            }
            // The I/O thread closed the input pipe itself.
            ChildProcess.stopThreads(
                condition, reaped: { reapedStatus != nil }, requestStop: {
                    stopRequested = true
                    wakeIOLocked()
                }, finished: { readerFinished && reaperFinished }
            ) {
                isClosed = true
                Posix.closeIgnoringErrors(outputFD)
                Posix.closeIgnoringErrors(errorFD)
                loop.close()
            }
            publishIfComplete(force: true)
            waiters.close()
            return withLock { result?.status ?? reapedStatus! }
        }
    }
}
