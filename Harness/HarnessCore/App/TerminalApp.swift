import Foundation
import HarnessWire
import Synchronization

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
    public let connectedBridge: AppBridge?
    /// The launch protocol the app was launched with (named in errors).
    public let launchProtocol: LaunchProtocol
    private let listener: BridgeListener?
    private let closed = Mutex(false)

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
    public static func launch(_ launch: AppLaunch) async throws -> TerminalApp {
        let sandbox = try launch.makeSandbox()
        do {
            let options = launch.launchOptions(storage: sandbox)
            let sessionBox = Mutex<TerminalSession?>(nil)
            var listener: BridgeListener?
            var protocolArguments = launch.protocolArguments(options)
            var protocolEnvironment = launch.protocolVariables(options)
            if launch.launchProtocol == .bridge {
                let bridgeListener = try BridgeListener(options: options) {
                    guard let session = sessionBox.withLock({ $0 }) else { return nil }
                    return Self.diagnostics(of: session) + "\n" + Self.launchProtocolHint(launch.carrier)
                }
                listener = bridgeListener
                protocolArguments = launch.protocolArguments(bridgeListener.launchOptions)
                protocolEnvironment = launch.protocolVariables(bridgeListener.launchOptions)
                // A crashing app must die at once, not after Swift's backtracer has run.
                if ProcessInfo.processInfo.environment["SWIFT_BACKTRACE"] == nil { protocolEnvironment["SWIFT_BACKTRACE"] = "enable=no" }
            }
            let environment = launch.programEnvironment(adding: protocolEnvironment)

            let configuration = TerminalSession.Configuration(
                executable: launch.executable,
                arguments: protocolArguments + launch.arguments,
                environment: environment,
                workingDirectory: launch.workingDirectory,
                size: launch.size,
                defaultTimeout: launch.defaultTimeout
            )
            let session: TerminalSession
            do {
                session = try await runOffPool { try TerminalSession.launch(configuration) }
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
                    session.terminate()
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

    /// Launches the app, runs `body`, and always closes it.
    ///
    /// When `body` throws, the failure's artifacts are written first (see
    /// ``writeFailureArtifacts(to:)``) under `HARNESS_ARTIFACTS` (default
    /// `.build/harness-artifacts/<TestFile>/<test>/`), and the sandbox is kept if
    /// `HARNESS_KEEP_SANDBOX=1`.
    @discardableResult
    public static func with<R>(
        _ launch: AppLaunch,
        filePath: StaticString = #filePath,
        function: String = #function,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (TerminalApp) async throws -> R
    ) async throws -> R {
        let app = try await Self.launch(launch)
        do {
            let result = try await body(app)
            await runOffPool { app.close(failed: false) }
            return result
        } catch {
            let file = URL(fileURLWithPath: "\(filePath)").deletingPathExtension().lastPathComponent
            let test = function.prefix { $0 != "(" }
            let folder = HarnessArtifacts.directory(forTestFile: "\(filePath)")
                .appendingPathComponent(file, isDirectory: true)
                .appendingPathComponent(String(test), isDirectory: true)
            if let written = try? app.writeFailureArtifacts(to: folder) {
                FileHandle.standardError.write(Data("harness: the failed test's recording and screen are in \(written.path)\n".utf8))
            }
            await runOffPool { app.close(failed: true) }
            throw error
        }
    }

    /// Writes what a failure needs to be understood into `folder`: the session recording as
    /// asciicast v2 (`recording.cast`, plays in `asciinema play`), the last screen as framed
    /// text with its style layer (`screen.txt`) and as a picture (`screen.svg`), and the bridge
    /// events (`events.json`). Returns the folder.
    @discardableResult
    public func writeFailureArtifacts(to folder: URL) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let screen = session.screen
        try session.recording.writeAsciicast(toFile: folder.appendingPathComponent("recording.cast").path)
        var text = screen.framed()
        let style = ScreenStyleLayer.lines(of: screen)
        if !style.isEmpty { text += "\nstyle:\n" + style.joined(separator: "\n") }
        if let status = session.exitStatus { text += "\nthe app \(status)" }
        try Data((text + "\n").utf8).write(to: folder.appendingPathComponent("screen.txt"))
        try Data(ScreenSVG.render(screen).utf8).write(to: folder.appendingPathComponent("screen.svg"))
        if let bridge = connectedBridge {
            let events = bridge.receivedEvents.map { #"{"seq": \#($0.seq), "name": \#(Self.jsonString($0.name)), "value": \#($0.value.text)}"# }
            try Data(("[\n" + events.joined(separator: ",\n") + "\n]\n").utf8).write(to: folder.appendingPathComponent("events.json"))
        }
        return folder
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
    public func requireBridge() throws -> AppBridge {
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
        session.terminate()
        listener?.close()
        sandbox.close(failed: failed)
    }

    /// Why an app may never say ready, and what to change: said whenever it does not.
    static func launchProtocolHint(_ carrier: LaunchCarrier) -> String {
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
