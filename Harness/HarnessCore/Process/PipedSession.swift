import Foundation
import HarnessSystem

/// A program run with pipes instead of a terminal: its standard input given up front, its
/// standard output and error read apart, to the end, by the harness's one event loop.
///
/// ```swift
/// try await PipedSession.withSession(.init(executable: "sort", standardInput: .text("b\na\n"))) { session in
///     let output = try await session.waitForExit(timeout: .seconds(5))
///     #expect(output.status == .exited(0))
///     #expect(output.standardOutput == "a\nb\n")
/// }
/// ```
///
/// The program runs in a session (and process group) of its own, so ``terminate(grace:)`` ends
/// it together with everything it started. Nothing blocks Swift's cooperative pool, and no
/// thread is started for the session: the event loop watches the three pipes (it writes the
/// input as the program reads it, so a program that never reads cannot block anyone) and the
/// program's exit. The result is delivered
/// once the program has exited and both output pipes reached end of file, so every byte written
/// before the exit is in it. Releasing the session terminates the program.
public final class PipedSession: Sendable {
    /// What a program printed and how it ended (the same type ``PipedProgram/run(_:arguments:environment:workingDirectory:input:)`` returns).
    public typealias Output = PipedProgram.Output

    let core: PipedSessionCore

    private init(core: PipedSessionCore) {
        self.core = core
    }

    /// Ends the program (see ``terminate(grace:)``) if it still runs and releases everything.
    /// Released on the event loop (by a handler that held the last reference), it starts the
    /// teardown without waiting for it.
    deinit {
        if EventLoop.shared.inLoop {
            core.startTerminating(grace: .milliseconds(500))
        } else {
            core.terminate(grace: .milliseconds(500))
        }
    }

    // MARK: - Configuration

    /// What the program reads on its standard input.
    public enum StandardInput: Sendable, Hashable {
        /// Nothing: the program reads end of file at once (`/dev/null`).
        case empty
        /// These bytes, then end of file. They are written by the harness's event loop as the
        /// program reads them; a program that exits without reading them all is not an error.
        case data(Data)
        /// The file's bytes: the file itself is opened and given to the program.
        case file(String)

        /// The text's UTF-8 bytes, then end of file.
        public static func text(_ text: String) -> StandardInput { .data(Data(text.utf8)) }
    }

    /// One of the program's two outputs.
    public enum Stream: Sendable, Hashable, CaseIterable {
        /// Standard output (descriptor 1).
        case standardOutput
        /// Standard error (descriptor 2).
        case standardError

        /// `stdout` or `stderr`, as traces and artifact files name it.
        package var name: String { self == .standardOutput ? "stdout" : "stderr" }
    }

    /// What to launch and how: the program, its arguments, environment, working directory,
    /// standard input and the default timeout of waits.
    public struct Configuration: Sendable {
        /// A path (absolute, or relative to the current directory) or a name looked up in `PATH`.
        public var executable: String
        /// Arguments after `argv[0]` (which is `executable` as given).
        public var arguments: [String]
        /// The program's whole environment (default: this process's made hermetic for pipes, see
        /// ``ProgramEnvironment``); `PATH` from here is also used to find `executable`.
        public var environment: [String: String]
        /// The program's working directory; nil keeps the current one.
        public var workingDirectory: String?
        /// What the program reads on its standard input.
        public var standardInput: StandardInput
        /// The timeout of ``PipedSession/waitForExit(timeout:)`` when it is not given one.
        public var defaultTimeout: Duration
        /// Called on the harness's event loop with every chunk read from either output, in order, after it
        /// was added to the session's copy (to stream it somewhere, or to know it arrived).
        public var onOutput: (@Sendable (Stream, [UInt8]) -> Void)?
        /// The most bytes kept of each output (``OutputLimit``: 64 MiB unless
        /// `HARNESS_OUTPUT_LIMIT` says otherwise): past it the oldest are dropped, the trace says
        /// so, and ``PipedProgram/Output`` counts them. `onOutput` still sees every byte.
        public var outputLimit: Int = OutputLimit.standard

        /// Creates a configuration; the environment defaults to the current process's, made
        /// hermetic for pipes (``ProgramEnvironment/hermetic(_:for:)``).
        public init(
            executable: String,
            arguments: [String] = [],
            environment: [String: String] = ProgramEnvironment.hermetic(for: .pipes),
            workingDirectory: String? = nil,
            standardInput: StandardInput = .empty,
            defaultTimeout: Duration = .seconds(10)
        ) {
            self.executable = executable
            self.arguments = arguments
            self.environment = environment
            self.workingDirectory = workingDirectory
            self.standardInput = standardInput
            self.defaultTimeout = defaultTimeout
        }
    }

    // MARK: - Launching

    /// Starts the program with pipes.
    ///
    /// Throws ``PipedSessionError/executableNotFound(_:)`` or ``PipedSessionError/notExecutable(_:)``
    /// before anything is spawned when the binary is missing or cannot be executed,
    /// ``PipedSessionError/standardInputUnreadable(path:_:)`` when the input file cannot be
    /// opened, and ``PipedSessionError/launchFailed(executable:_:)`` when a system call fails
    /// (including `execve` in the child). A failed launch leaves no descriptor and no process.
    public static func launch(_ configuration: Configuration) throws(PipedSessionError) -> PipedSession {
        let path: String
        do {
            path = try ExecutableResolver.resolveForLaunch(
                configuration.executable, arguments: configuration.arguments,
                environment: configuration.environment, workingDirectory: configuration.workingDirectory)
        } catch {
            switch error {
            case .executableNotFound(let name): throw .executableNotFound(name)
            case .notExecutable(let name): throw .notExecutable(name)
            case .invalidConfiguration(let reason): throw .invalidConfiguration(reason)
            default: throw .invalidConfiguration("\(error)")
            }
        }
        let environment = configuration.environment.map { "\($0.key)=\($0.value)" }.sorted()

        // Every descriptor opened here is closed on every path out: the child's ends right
        // after the spawn, ours when anything fails.
        var childEnds: [Int32] = []
        var ownEnds: [Int32] = []
        func closeAll(_ fds: [Int32]) { for fd in fds { Posix.closeIgnoringErrors(fd) } }
        defer { closeAll(childEnds) }
        do {
            let standardInput: Int32
            var inputWriter: Int32 = -1
            var input = Data()
            switch configuration.standardInput {
            case .empty:
                standardInput = try Posix.openForReading("/dev/null")
                childEnds.append(standardInput)
            case .file(let file):
                do {
                    standardInput = try Posix.openForReading(file)
                } catch {
                    throw PipedSessionError.standardInputUnreadable(path: file, error)
                }
                childEnds.append(standardInput)
            case .data(let data):
                let pipe = try Posix.makePipe()
                childEnds.append(pipe.read)
                ownEnds.append(pipe.write)
                standardInput = pipe.read
                inputWriter = pipe.write
                input = data
                try Posix.setNonBlocking(pipe.write)
            }
            let output = try Posix.makePipe()
            childEnds.append(output.write)
            ownEnds.append(output.read)
            let error = try Posix.makePipe()
            childEnds.append(error.write)
            ownEnds.append(error.read)
            try Posix.setNonBlocking(output.read)
            try Posix.setNonBlocking(error.read)
            let pid = try Posix.spawnWithPipes(
                path: path, arguments: [configuration.executable] + configuration.arguments,
                environment: environment, workingDirectory: configuration.workingDirectory,
                standardInput: standardInput, standardOutput: output.write, standardError: error.write,
                tiedToHarness: true)
            let core = PipedSessionCore(
                pid: pid, executable: path, input: input, inputFD: inputWriter,
                outputFD: output.read, errorFD: error.read,
                configuration: configuration)
            core.start()
            return PipedSession(core: core)
        } catch let error as PipedSessionError {
            closeAll(ownEnds)
            throw error
        } catch let error as PosixError {
            closeAll(ownEnds)
            throw .launchFailed(executable: path, error)
        } catch {
            closeAll(ownEnds)
            throw .invalidConfiguration("\(error)")
        }
    }

    /// Launches the program, runs `body`, and always terminates the program afterwards, also
    /// when `body` throws.
    public static func withSession<Result>(
        _ configuration: Configuration,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (PipedSession) async throws -> Result
    ) async throws -> Result {
        try await withReleasing(try launch(configuration), release: { await $0.terminated() }, body)
    }

    // MARK: - State

    /// The configuration the session was launched with.
    public var configuration: Configuration { core.configuration }

    /// The absolute path of the executed file.
    package var executablePath: String { core.executable }

    /// The program's process id; also its process group and session id.
    public var pid: Int32 { core.pid }

    /// How the program ended, once it exited and its output was read to the end; nil before.
    public var exitStatus: ExitStatus? { core.finishedOutput?.status }

    /// What was read from the program's standard output so far: all of it, or its last bytes
    /// when it went over the output limit (``Configuration/outputLimit``).
    package var standardOutputSoFar: Data { core.standardOutputSoFar }

    /// What was read from the program's standard error so far (its last bytes past the limit).
    package var standardErrorSoFar: Data { core.standardErrorSoFar }

    /// Runs `handler` once, with what ``waitForExit(timeout:)`` returns, when the program has
    /// exited and both outputs were read to the end (or when ``terminate(grace:)`` ended the
    /// session without them): on the harness's event loop, before any wait returns, so it
    /// does not depend on Swift's cooperative pool (next, if the program already ended).
    /// Keep it quick, and do not wait in it for this session (its `terminate()` included).
    package func onExit(_ handler: @escaping @Sendable (Output) -> Void) {
        core.onExit(handler)
    }

    // MARK: - Waiting and termination

    /// Waits until the program has exited and both of its outputs were read to the end, and
    /// returns how it ended with everything it wrote.
    ///
    /// Event driven: the event loop resumes the wait when it reaps the program or reads its
    /// last byte. Throws ``PipedSessionError/timeout(executable:after:standardOutputTail:standardErrorTail:location:)``
    /// when the program still runs after `timeout` (nil: the configuration's default), or
    /// ``PipedSessionError/outputStillOpen(executable:status:after:standardOutputTail:standardErrorTail:location:)``
    /// when it exited but a process it started still holds its output open. The program is left
    /// running: ``terminate(grace:)`` (or releasing the session) ends it.
    @discardableResult
    public func waitForExit(
        timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> Output {
        let start = Date()
        return try await CallSiteFailures.reporting("\(filePath)") {
            do {
                let output = try await core.wait(timeout: timeout ?? core.defaultTimeout)
                journalWait(fileID: fileID, line: line, start: start, problem: nil)
                return output
            } catch {
                let located = (error as? PipedSessionError)?.at(
                    SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)) ?? error
                journalWait(fileID: fileID, line: line, start: start,
                            problem: (located as? PipedSessionError)?.failureMessage.split(separator: "\n").first.map(String.init)
                                ?? "\(error)".split(separator: "\n").first.map(String.init))
                throw located
            }
        }
    }

    /// What the test did with this session (its waits), for its trace; empty unless its test is traced.
    package var journal: SessionJournal { core.journal }

    private func journalWait(fileID: StaticString, line: UInt, start: Date, problem: String?) {
        core.journal.record(SessionJournal.Entry(
            text: "wait for the program to exit", file: "\(fileID)", line: Int(line), start: start, end: Date(),
            problem: problem, screen: nil))
    }

    /// Ends the program's whole process group: SIGTERM, up to `grace` for it to exit, then
    /// SIGKILL; then stops reading and closes the pipes. Idempotent: later calls return the same
    /// status. Also runs when the session is released. A wait still pending gets the output read
    /// until then.
    /// Blocks the calling thread until the teardown is done (the teardown itself runs on the
    /// harness's event loop).
    @discardableResult
    public func terminate(grace: Duration = .milliseconds(500)) -> ExitStatus {
        core.terminate(grace: grace)
    }

    /// ``terminate(grace:)``, awaited instead of blocking the caller's thread.
    @discardableResult
    package func terminated(grace: Duration = .milliseconds(500)) async -> ExitStatus {
        await core.terminated(grace: grace)
    }
}
