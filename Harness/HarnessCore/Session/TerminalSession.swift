import Foundation
import TerminalEmulator
import HarnessSystem

/// A program running under a fresh pseudo-terminal, with a terminal emulator reading
/// everything it draws: the heart of the harness.
///
/// ```swift
/// try await TerminalSession.withSession(.init(executable: "cat")) { session in
///     try session.type("hello")
///     try await session.waitFor(text: "hello")
/// }
/// ```
///
/// The program runs in its own session and process group with the pty as its controlling
/// terminal and as stdin, stdout and stderr. Its output is read continuously by the harness's
/// one event loop (no thread per session) and fed to a `Terminal`; each chunk wakes the
/// pending waits. The session is safe to
/// use from any thread or task. Input, the screen and the waits are those of
/// ``TerminalDriving``, which ``TerminalApp`` shares.
public final class TerminalSession: Sendable {
    let core: SessionCore
    private let terminateHandlers = Locked<[@Sendable (TerminalSession) -> Void]>([])

    private init(core: SessionCore) {
        self.core = core
    }

    /// Ends the program (see `terminate(grace:)`) if it still runs and releases everything.
    /// Released on the event loop (by a handler that held the last reference), it starts the
    /// teardown without waiting for it.
    deinit {
        if EventLoop.shared.inLoop {
            startTerminating()
        } else {
            core.terminate(grace: .milliseconds(500))
        }
    }

    /// Runs `handler` once, when ``terminate(grace:)`` is first called (before the program is
    /// ended), so a trace can still read the screen.
    package func onTerminate(_ handler: @escaping @Sendable (TerminalSession) -> Void) {
        terminateHandlers.withLock { $0.append(handler) }
    }

    // MARK: - Launching

    /// Starts the program under a new pseudo-terminal.
    ///
    /// Throws `TerminalSessionError.executableNotFound` or `.notExecutable` before anything is
    /// spawned when the binary is missing or cannot be executed, and `.launchFailed` when a
    /// system call fails (including `execve` in the child, reported through a pipe). In a
    /// traced test (`HARNESS_ARTIFACTS` or `.harnessTrace`, with `Harness` linked) its waits and
    /// inputs are recorded, and ``terminate(grace:)`` writes the test's timeline.
    public static func launch(
        _ configuration: Configuration, filePath: StaticString = #filePath, function: String = #function
    ) throws -> TerminalSession {
        let session = try launchSession(configuration)
        if let hooks = TestFrameworkGlue.hooks(filePath: "\(filePath)", function: function), hooks.isTraced {
            session.journal.enable()
            session.onTerminate { session in hooks.finished(session, failure: nil) }
        }
        return session
    }

    /// ``launch(_:)`` without blocking the caller's thread: the launch runs on the blocking
    /// worker (a pool thread blocked in a spawn makes Dispatch start another).
    package static func launched(_ configuration: Configuration) async throws -> TerminalSession {
        try await BlockingWorker.shared.run { try launchSession(configuration) }
    }

    /// The launch itself.
    package static func launchSession(_ configuration: Configuration) throws -> TerminalSession {
        let size = configuration.size
        guard size.cols >= 1, size.rows >= 1, size.cols <= Int(UInt16.max), size.rows <= Int(UInt16.max) else {
            throw TerminalSessionError.invalidConfiguration("terminal size \(size) is out of range")
        }
        let path = try ExecutableResolver.resolveForLaunch(
            configuration.executable, arguments: configuration.arguments,
                environment: configuration.environment, workingDirectory: configuration.workingDirectory)
        let environment = configuration.effectiveEnvironment
        let term = environment.first { $0.hasPrefix("TERM=") }.map { String($0.dropFirst(5)) }

        do {
            let pty = try Posix.openPseudoTerminal(cols: size.cols, rows: size.rows)
            let pid: Int32
            do {
                defer { Posix.closeIgnoringErrors(pty.slave) }
                try Posix.setNonBlocking(pty.master)
                try SessionCore.setWindowSize(pty.master, size)  // the pixels too
                pid = try Posix.spawnInPseudoTerminal(
                    path: path, arguments: [configuration.executable] + configuration.arguments,
                    environment: environment, workingDirectory: configuration.workingDirectory, slave: pty.slave,
                    tiedToHarness: true)
            } catch {
                Posix.closeIgnoringErrors(pty.master)
                throw error
            }
            let core = SessionCore(pid: pid, master: pty.master, configuration: configuration, executable: path, term: term)
            core.start()
            return TerminalSession(core: core)
        } catch let error as PosixError {
            throw TerminalSessionError.launchFailed(executable: path, error)
        }
    }

    /// Launches the program, runs `body`, and always terminates the program afterwards, also
    /// when `body` throws. With `Harness` linked, when the test failed while the session was
    /// open (`body` threw, or the test recorded a failure), its ``failureArtifacts()``
    /// (recording, screen as text and SVG) are kept and attached as `TerminalApp.with` keeps an
    /// app's; a failed wait is reported at its own line; in a traced test the session's waits
    /// and inputs become the test's timeline.
    public static func withSession<Result>(
        _ configuration: Configuration,
        filePath: StaticString = #filePath,
        function: String = #function,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (TerminalSession) async throws -> Result
    ) async throws -> Result {
        let session = try await launched(configuration)
        guard let hooks = TestFrameworkGlue.hooks(filePath: "\(filePath)", function: function) else {
            return try await withReleasing(session, release: { await $0.terminated() }, body)
        }
        if hooks.isTraced { session.journal.enable() }
        let (outcome, issueRecorded) = await hooks.run(isolation: isolation) { try await body(session) }
        let failure: String? = switch outcome {
        case .failure(let error): "\(error)"
        case .success: issueRecorded ? "the test recorded a failure while the session was open" : nil
        }
        if hooks.isTraced { hooks.finished(session, failure: failure) }
        if failure != nil {
            HarnessArtifacts.keep(session.failureArtifacts(), filePath: "\(filePath)", function: function, hooks: hooks)
        }
        await session.terminated()
        do { return try outcome.get() } catch { try await CallSiteFailures.rethrowAtItsLine(error) }
    }

    // MARK: - State

    /// The configuration the session was launched with.
    public var configuration: Configuration { core.configuration }

    /// The absolute path of the executed file.
    package var executablePath: String { core.executable }

    /// The program's process id; also its process group and session id.
    public var pid: Int32 { core.pid }

    /// Runs `handler` once, on the harness's event loop, when the program has exited and all
    /// its output was read (next, if it already has). Keep it quick, and do not wait in it
    /// for this session (its `terminate()` included).
    package func onExit(_ handler: @escaping @Sendable (ExitStatus) -> Void) {
        core.onExit(handler)
    }

    /// Everything written and typed so far, with timestamps (for asciicast export): the newest
    /// events up to the output limit (``Configuration/outputLimit``), with the count of the
    /// older ones dropped.
    package var recording: TerminalRecording { core.recording }

    /// The last (up to 4 KiB) raw bytes the program wrote.
    package var recentOutput: [UInt8] { core.recentOutput }

    // MARK: - Termination

    /// Ends the program's whole process group: SIGHUP and SIGTERM, up to `grace` for it to
    /// exit, then SIGKILL; then stops reading and closes the terminal. Idempotent: later calls
    /// return the same status. Also runs when the session is released.
    /// Blocks the calling thread until the teardown is done (the teardown itself runs on the
    /// harness's event loop).
    @discardableResult
    public func terminate(grace: Duration = .milliseconds(500)) -> ExitStatus {
        runTerminateHandlers()
        return core.terminate(grace: grace)
    }

    /// ``terminate(grace:)``, awaited instead of blocking the caller's thread.
    @discardableResult
    package func terminated(grace: Duration = .milliseconds(500)) async -> ExitStatus {
        runTerminateHandlers()
        return await core.terminated(grace: grace)
    }

    /// Starts ``terminate(grace:)`` without waiting for it: for a release or a close on the
    /// event loop, which runs the teardown and so cannot wait for it.
    package func startTerminating(grace: Duration = .milliseconds(500)) {
        runTerminateHandlers()
        core.startTerminating(grace: grace)
    }

    private func runTerminateHandlers() {
        for handler in terminateHandlers.withLock({ handlers in defer { handlers = [] }; return handlers }) { handler(self) }
    }

    /// What a failure needs to be understood: the recording as asciicast v2 (`recording.cast`),
    /// the last screen as framed text with its style layer and the program's exit status
    /// (`screen.txt`) and as pictures (`screen.svg`, and `screen.png` when GNU Unifont is installed).
    package func failureArtifacts() -> [HarnessArtifacts.File] {
        let screen = screen
        var text = screen.framed()
        let style = ScreenStyleLayer.lines(of: screen)
        if !style.isEmpty { text += "\nstyle:\n" + style.joined(separator: "\n") }
        if let status = exitStatus { text += "\nthe app \(status)" }
        var files = [
            HarnessArtifacts.File(name: "recording.cast", contents: Data(recording.asciicast().utf8)),
            HarnessArtifacts.File(name: "screen.txt", contents: Data((text + "\n").utf8)),
            HarnessArtifacts.File(name: "screen.svg", contents: Data(ScreenSVG.render(screen).utf8)),
        ]
        if let png = ScreenPNG.failurePicture(of: screen) { files.append(HarnessArtifacts.File(name: "screen.png", contents: Data(png))) }
        return files
    }
}
