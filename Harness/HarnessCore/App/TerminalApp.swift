import Foundation
import HarnessWire
import HarnessSystem

/// An app under test, launched on a pseudo-terminal with the launch protocol: its terminal
/// session, its storage sandbox, and (when it speaks it) its bridge.
///
/// ```swift
/// try await TerminalApp.with(launch) { app in
///     try app.session.press(.enter)
///     try await app.session.waitFor(text: "Loading…")
///     #expect(try await app.bridge.spy("database.save", as: [Todo].self).count == 0)
///     #expect(!app.sandbox.exists("todos.json"))
/// }
/// ```
public final class TerminalApp: Sendable {
    /// The program's terminal: input, screen, waits, exit.
    public let session: TerminalSession
    /// The app's private storage directory, passed as `--harness-storage`.
    public let sandbox: Sandbox
    /// The bridge into the app; nil unless launched with ``LaunchProtocol/bridge``.
    package let connectedBridge: AppBridge?
    /// The launch protocol the app was launched with (named in errors).
    package let launchProtocol: LaunchProtocol
    private let listener: BridgeListener?
    private let closed = Locked(false)
    private let closeHandlers = Locked<[@Sendable (TerminalApp, Bool) -> Void]>([])

    private init(session: TerminalSession, sandbox: Sandbox, bridge: AppBridge?, listener: BridgeListener?,
                 launchProtocol: LaunchProtocol) {
        self.launchProtocol = launchProtocol
        self.session = session
        self.sandbox = sandbox
        self.connectedBridge = bridge
        self.listener = listener
    }

    deinit { close(failed: false) }

    /// Launches the app and, with the bridge, waits for its host to say ready.
    ///
    /// A launch that fails leaves nothing behind: the process, socket and sandbox are removed.
    /// In a traced test (`HARNESS_ARTIFACTS` or `.harnessTrace`, with `Harness` linked) its
    /// session's journal records the test's waits, inputs and steps, and closing the app writes
    /// the test's timeline (`close(failed: true)` marks it failed). (The app of a
    /// `TerminalApp.with` is launched by the `with`, which writes its timeline.)
    public static func launch(
        _ launch: AppLaunch, filePath: StaticString = #filePath, function: String = #function
    ) async throws -> TerminalApp {
        let app = try await launchApp(launch)
        TestFrameworkGlue.hooks(filePath: "\(filePath)", function: function)?.trace(app)
        return app
    }

    /// Runs `handler` when the app closes (before it is torn down), with whether it failed.
    package func onClose(_ handler: @escaping @Sendable (TerminalApp, Bool) -> Void) {
        closeHandlers.withLock { $0.append(handler) }
    }

    /// The launch itself.
    package static func launchApp(_ launch: AppLaunch) async throws -> TerminalApp {
        let sandbox = try launch.makeSandbox()
        do {
            let options = launch.launchOptions(storage: sandbox)
            let sessionBox = Locked<TerminalSession?>(nil)
            var listener: BridgeListener?
            var protocolArguments = launch.protocolArguments(options)
            var protocolEnvironment = launch.protocolVariables(options)
            if launch.launchProtocol == .bridge {
                let bridgeListener = try BridgeListener(options: options, eventLimit: launch.outputLimit) {
                    guard let session = sessionBox.withLock({ $0 }) else { return nil }
                    return Self.diagnostics(of: session) + "\n" + Self.launchProtocolHint(launch.carrier)
                }
                listener = bridgeListener
                protocolArguments = launch.protocolArguments(bridgeListener.launchOptions)
                protocolEnvironment = launch.protocolVariables(bridgeListener.launchOptions)
                // A crashing app must die at once, not after Swift's backtracer has run.
                if ProcessInfo.processInfo.environment["SWIFT_BACKTRACE"] == nil { protocolEnvironment["SWIFT_BACKTRACE"] = "enable=no" }
            }
            let environment = launch.programEnvironment(adding: protocolEnvironment, for: .terminal)
            let programArguments: [String]
            do {
                programArguments = try launch.programArguments(listener?.launchOptions ?? options)
            } catch {
                listener?.close()
                throw error
            }

            var launchConfiguration = TerminalSession.Configuration(
                executable: launch.executable,
                arguments: protocolArguments + programArguments,
                environment: environment,
                workingDirectory: launch.workingDirectory,
                size: launch.size,
                defaultTimeout: launch.defaultTimeout
            )
            launchConfiguration.synchronizedOutputLimit = launch.synchronizedOutputLimit
            launchConfiguration.outputLimit = launch.outputLimit
            launchConfiguration.theme = launch.theme
            if let listener {
                // A host connects before the app's first output: output without a connection
                // ends the wait for ready at once (the app links no host).
                launchConfiguration.onFirstOutput = { [weak listener] in listener?.appWroteOutput() }
            }
            let configuration = launchConfiguration
            let session: TerminalSession
            do {
                // fork and exec block: on the one worker thread that may, off Swift's pool.
                session = try await BlockingWorker.shared.run { try TerminalSession.launchSession(configuration) }
            } catch {
                listener?.close()
                throw error
            }
            sessionBox.withLock { $0 = session }
            var bridge: AppBridge?
            if let listener {
                session.onExit { status in listener.appExited(status.description) }
                do {
                    bridge = try await listener.waitForReady(timeout: launch.readyTimeout)
                    bridge?.defaultTimeout = launch.defaultTimeout
                } catch {
                    await session.terminated()
                    listener.close()
                    throw error
                }
            }
            return TerminalApp(session: session, sandbox: sandbox, bridge: bridge, listener: listener,
                               launchProtocol: launch.launchProtocol)
        } catch {
            _ = sandbox.close(failed: false)
            throw error
        }
    }

    /// Launches the app, runs `body`, and always closes it; keeps what a failure needs to be
    /// understood whenever the test failed while the app was open.
    ///
    /// The test failed when `body` threw, or, with `Harness` linked, when the running test
    /// recorded a failure while `body` ran: an `#expect`, an `XCTAssert`, a harness assertion
    /// or a step that does not throw. Then, before the app is closed, its
    /// ``failureArtifacts()`` (the recording as asciicast, the screen as framed text and as SVG,
    /// the bridge events) are written to `.build/harness-artifacts/<TestFile>/<test>/` (or
    /// `$HARNESS_ARTIFACTS/<TestFile>/<test>/`), attached to the test (`swift test
    /// --attachments-path DIR` copies them to `DIR`, named `<TestFile>.<test>.screen.svg` and
    /// so on; XCTest attaches them on Darwin), and the sandbox is kept if
    /// `HARNESS_KEEP_SANDBOX=1`. A failed wait is reported at its own line; in a traced test the
    /// whole `with` becomes the test's timeline.
    ///
    /// Known issues (`withKnownIssue`) and warnings are not failures. A failure recorded before
    /// `with` began or after it returned, or from a detached task, is not seen.
    ///
    /// ```swift
    /// try await TerminalApp.with(launch) { app in
    ///     try app.press(.enter)
    ///     try await app.waitFor(text: "Todos (7)")
    ///     #expect(app.screen.contains("milk"))   // fails: the screen and recording are kept
    /// }
    /// ```
    @discardableResult
    public static func with<R>(
        _ launch: AppLaunch,
        filePath: StaticString = #filePath,
        function: String = #function,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (TerminalApp) async throws -> R
    ) async throws -> R {
        let hooks = TestFrameworkGlue.hooks(filePath: "\(filePath)", function: function)
        do {
            return try await with(launch, filePath: filePath, function: function, hooks: hooks, isolation: isolation, body)
        } catch {
            // A failed wait (or `verify`) is reported at its own line, once.
            try await CallSiteFailures.rethrowAtItsLine(error)
        }
    }

    /// The one implementation of `with`: `hooks` (from `Harness`) say whether the test recorded a
    /// failure while `body` ran and attach the artifacts to it, and trace it; without them a
    /// failure is a body that throws.
    package static func with<R>(
        _ launch: AppLaunch,
        filePath: StaticString,
        function: String,
        hooks: (any TestFrameworkHooks)?,
        isolation: isolated (any Actor)?,
        _ body: (TerminalApp) async throws -> R
    ) async throws -> R {
        let app = try await launchApp(launch)
        // Traced: the session's journal records the body's waits and inputs and the steps it
        // runs, and the whole `with` becomes one timeline (`hooks.finished`).
        if hooks?.isTraced == true { app.session.journal.enable() }
        let outcome: Result<R, any Error>
        var issueRecorded = false
        if let hooks {
            (outcome, issueRecorded) = await hooks.run(isolation: isolation) { try await body(app) }
        } else {
            do { outcome = .success(try await body(app)) } catch { outcome = .failure(error) }
        }
        let threw = if case .failure = outcome { true } else { false }
        let failed = threw || issueRecorded
        if let hooks {
            let failure: String? = switch outcome {
            case .failure(let error): "\(error)"
            case .success: issueRecorded ? "the test recorded a failure while the app was open" : nil
            }
            hooks.finished(app, failure: failure)
        }
        if failed {
            app.keepFailureArtifacts(filePath: "\(filePath)", function: function, hooks: hooks)
        }
        await app.closed(failed: failed)
        return try outcome.get()
    }

    /// Writes the failure's artifacts to the test's folder (saying where on standard error) and
    /// attaches them to the test when `hooks` can.
    private func keepFailureArtifacts(filePath: String, function: String, hooks: (any TestFrameworkHooks)?) {
        HarnessArtifacts.keep(failureArtifacts(), filePath: filePath, function: function, hooks: hooks)
    }

    /// What a failure needs to be understood: the session recording as asciicast v2
    /// (`recording.cast`, plays in `asciinema play`), the last screen as framed text with its
    /// style layer and the app's exit status (`screen.txt`) and as pictures (`screen.svg`, and
    /// `screen.png` when GNU Unifont is installed), and,
    /// with the bridge, the events it received (`events.json`).
    package func failureArtifacts() -> [HarnessArtifacts.File] {
        var files = session.failureArtifacts()
        if let bridge = connectedBridge {
            let events = bridge.receivedEvents.map { #"{"seq": \#($0.seq), "name": \#(Self.jsonString($0.name)), "value": \#($0.value.text)}"# }
            files.append(HarnessArtifacts.File(name: "events.json", contents: Data(("[\n" + events.joined(separator: ",\n") + "\n]\n").utf8)))
        }
        return files
    }

    /// Writes ``failureArtifacts()`` into `folder` and returns the folder.
    @discardableResult
    package func writeFailureArtifacts(to folder: URL) throws -> URL {
        try HarnessArtifacts.write(failureArtifacts(), to: folder)
    }

    private static func jsonString(_ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// The bridge into the app.
    ///
    /// - Throws: `BridgeError.notLaunched` when the app was launched without a bridge (its
    ///   launch protocol was not `.bridge`), saying how to launch it with one.
    public var bridge: AppBridge {
        get throws(BridgeError) {
            guard let connectedBridge else { throw .notLaunched(launchProtocol: "\(launchProtocol)") }
            return connectedBridge
        }
    }

    /// The bridge, or an error saying the app was launched without one.
    @available(*, deprecated, renamed: "bridge")
    package func requireBridge() throws -> AppBridge {
        try bridge
    }

    /// Ends the app's process group (SIGHUP/SIGTERM, then SIGKILL) and returns how it ended.
    @discardableResult
    public func terminate() -> ExitStatus {
        session.terminate()
    }

    /// Terminates the app, closes the bridge, and removes the sandbox (kept when `failed` and
    /// `HARNESS_KEEP_SANDBOX=1`; its path is then printed). Idempotent.
    public func close(failed: Bool) {
        guard closed.setOnce() else { return }
        runCloseHandlers(failed: failed)
        if EventLoop.shared.inLoop {
            // Closed (or released) by a handler on the event loop, which runs the teardown and
            // so cannot wait for it here: the rest follows once it is done.
            session.startTerminating()
            let (session, listener, sandbox) = (session, listener, sandbox)
            Task.detached {
                await session.terminated()
                listener?.close()
                sandbox.close(failed: failed)
            }
            return
        }
        session.terminate()
        finishClosing(failed: failed)
    }

    /// ``close(failed:)``, awaiting the teardown instead of blocking the caller's thread.
    package func closed(failed: Bool) async {
        guard closed.setOnce() else { return }
        runCloseHandlers(failed: failed)
        await session.terminated()
        finishClosing(failed: failed)
    }

    private func runCloseHandlers(failed: Bool) {
        for handler in closeHandlers.withLock({ handlers in defer { handlers = [] }; return handlers }) { handler(self, failed) }
    }

    private func finishClosing(failed: Bool) {
        listener?.close()
        sandbox.close(failed: failed)
    }

    /// Why an app may never say ready, and what to change: said whenever it does not.
    package static func launchProtocolHint(_ carrier: LaunchCarrier) -> String {
        let carried = carrier == .arguments
            ? "its command line starts with --harness-network/--harness-storage/--harness-bridge flags"
            : "its environment holds HARNESS_NETWORK/HARNESS_STORAGE/HARNESS_BRIDGE variables"
        return """
            The app was launched with the launch protocol .bridge: \(carried) and its environment holds the \
            bridge token (docs/PROTOCOL.md). A program without a harness host (HarnessHost, or \
            Harness/hosts/python) never says ready\(carrier == .arguments ? ", and may refuse the flags" : ""): launch it with \
            `launch.launchProtocol = .none` (nothing added) or `.arguments` (the options without the bridge).
            """
    }

    /// The app's exit status (if it ended) and its screen, for error messages.
    static func diagnostics(of session: TerminalSession) -> String {
        let status = session.exitStatus.map { "the app \($0)" } ?? "the app is still running"
        return "\(status); its screen:\n\(session.screen.framed())"
    }
}

/// Typing, keys, the mouse, the screen, the output and the waits, straight on the app: each
/// goes to ``TerminalApp/session``.
///
/// ```swift
/// try await TerminalApp.with(launch) { app in
///     try app.press(.enter)
///     try await app.waitFor(text: "Todos (7)")
///     assertSnapshot(of: app.screen, as: .screen(), named: "loaded")
/// }
/// ```
extension TerminalApp: TerminalDriving {
    /// The app's session.
    public var terminalSession: TerminalSession { session }
}
