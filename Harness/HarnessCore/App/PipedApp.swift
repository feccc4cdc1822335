import Foundation
import HarnessSystem

/// An app under test run with pipes instead of a terminal, with the launch protocol's
/// arguments (network, storage sandbox, clock, initial state, values) passed as
/// ``TerminalApp`` passes them: its piped session and its storage sandbox.
///
/// ```swift
/// var launch = AppLaunch(executable: todoPath, arguments: ["list", "--json"])
/// launch.launchProtocol = .arguments
/// launch.seeds["todos.json"] = fixture
/// let app = try PipedApp.launch(launch)
/// defer { app.close(failed: false) }
/// let output = try await app.session.waitForExit()
/// ```
///
/// The bridge is not offered in this version: a launch with ``LaunchProtocol/bridge`` throws.
public final class PipedApp: Sendable {
    /// The program's pipes: output, exit, termination.
    public let session: PipedSession
    /// The app's private storage directory, passed as `--harness-storage` (with `.arguments`).
    public let sandbox: Sandbox
    private let closed = Locked(false)
    private let closeHandlers = Locked<[@Sendable (PipedApp, Bool) -> Void]>([])

    private init(session: PipedSession, sandbox: Sandbox) {
        self.session = session
        self.sandbox = sandbox
    }

    deinit { close(failed: false) }

    /// Launches the app with `standardInput`, in a fresh sandbox holding the launch's seeds.
    ///
    /// A launch that fails leaves nothing behind. The terminal size and `readyTimeout` of
    /// `launch` do not apply; its `defaultTimeout` is the session's. In a traced test
    /// (`HARNESS_ARTIFACTS` or `.harnessTrace`, with `Harness` linked) its waits and steps are
    /// recorded, and closing it writes the test's timeline (with, when `close(failed: true)`,
    /// what it wrote so far).
    public static func launch(
        _ launch: AppLaunch, standardInput: PipedSession.StandardInput = .empty,
        filePath: StaticString = #filePath, function: String = #function
    ) throws -> PipedApp {
        let app = try launchApp(launch, standardInput: standardInput)
        TestFrameworkGlue.hooks(filePath: "\(filePath)", function: function)?.trace(app)
        return app
    }

    /// Runs `handler` when the app closes (before it is torn down), with whether it failed.
    package func onClose(_ handler: @escaping @Sendable (PipedApp, Bool) -> Void) {
        closeHandlers.withLock { $0.append(handler) }
    }

    /// The launch itself.
    package static func launchApp(_ launch: AppLaunch, standardInput: PipedSession.StandardInput) throws -> PipedApp {
        guard launch.launchProtocol != .bridge else {
            throw PipedSessionError.invalidConfiguration(
                "the bridge needs a terminal run (TerminalApp); a piped app speaks LaunchProtocol.arguments or .none")
        }
        let sandbox = try launch.makeSandbox()
        do {
            let options = launch.launchOptions(storage: sandbox)
            var configuration = PipedSession.Configuration(
                executable: launch.executable,
                arguments: launch.protocolArguments(options) + (try launch.programArguments(options)),
                environment: launch.programEnvironment(adding: launch.protocolVariables(options), for: .pipes),
                workingDirectory: launch.workingDirectory,
                standardInput: standardInput,
                defaultTimeout: launch.defaultTimeout
            )
            configuration.outputLimit = launch.outputLimit
            return PipedApp(session: try PipedSession.launch(configuration), sandbox: sandbox)
        } catch {
            sandbox.close(failed: false)
            throw error
        }
    }

    /// Ends the program's process group and removes the sandbox (kept when `failed` and
    /// `HARNESS_KEEP_SANDBOX=1`; its path is then printed). Idempotent.
    public func close(failed: Bool) {
        guard closed.setOnce() else { return }
        for handler in closeHandlers.withLock({ handlers in defer { handlers = [] }; return handlers }) { handler(self, failed) }
        if EventLoop.shared.inLoop {
            // Closed (or released) by a handler on the event loop, which runs the teardown and
            // so cannot wait for it here: the sandbox goes once it is done.
            let (session, sandbox) = (session, sandbox)
            session.core.startTerminating(grace: .milliseconds(500))
            Task.detached {
                await session.terminated()
                sandbox.close(failed: failed)
            }
            return
        }
        session.terminate()
        sandbox.close(failed: failed)
    }

    /// ``close(failed:)``, awaiting the teardown instead of blocking the caller's thread.
    package func closed(failed: Bool) async {
        guard closed.setOnce() else { return }
        for handler in closeHandlers.withLock({ handlers in defer { handlers = [] }; return handlers }) { handler(self, failed) }
        await session.terminated()
        sandbox.close(failed: failed)
    }

    /// What a failure needs to be understood: what the program wrote to standard output
    /// (`stdout.txt`) and standard error (`stderr.txt`) so far, byte for byte, and how it ended
    /// or that it still runs (`status.txt`).
    package func failureArtifacts() -> [HarnessArtifacts.File] {
        let status = session.exitStatus.map { "the app \($0)" } ?? "the app still ran"
        return [
            HarnessArtifacts.File(name: "stdout.txt", contents: session.standardOutputSoFar),
            HarnessArtifacts.File(name: "stderr.txt", contents: session.standardErrorSoFar),
            HarnessArtifacts.File(name: "status.txt", contents: Data((status + "\n").utf8)),
        ]
    }
}
