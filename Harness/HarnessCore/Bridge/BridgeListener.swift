import Foundation
import HarnessWire
import HarnessSystem

/// The harness end of the bridge: a Unix socket in a private (0700) directory,
/// a random token, and the launch options that tell the app where to connect.
///
/// Create it before launching the app, pass ``arguments`` on the app's command
/// line and ``environment`` in its environment, then await ``waitForReady(timeout:)``.
/// It accepts exactly one connection and authenticates it by the token; the
/// handshake runs as soon as the app connects, whether or not a test is waiting.
///
/// ```swift
/// let listener = try BridgeListener(options: LaunchOptions(networkBaseURL: stub.url))
/// defer { listener.close() }
/// let process = launch(app, arguments: listener.arguments, environment: listener.environment)
/// process.onExit { status in listener.appExited("exit status \(status)") }
/// let app = try await listener.waitForReady(timeout: .seconds(5))
/// let saved = try await app.spy("database.save", as: [Todo].self).calls
/// ```
package final class BridgeListener: Sendable {
    /// The private directory holding the socket (mode 0700, removed by ``close()``).
    package let directory: String
    /// The path of the listening socket.
    public let socketPath: String
    /// The options to launch the app with: the caller's, plus the socket path and the token.
    public let launchOptions: LaunchOptions

    private let client: BridgeClient
    private let state: ListenerState

    /// Creates the private directory and the listening socket.
    ///
    /// - Parameters:
    ///   - options: the other launch options (network, storage, clock, initial state, values).
    ///   - maxFrameSize: the largest frame accepted from the app.
    ///   - eventLimit: the most bytes of events kept for ``AppBridge/nextEvent(named:timeout:fileID:filePath:line:column:)``
    ///     and the report (``OutputLimit``): past it the oldest are dropped, and a wait whose
    ///     place is among them goes on from the oldest kept.
    ///   - exitGrace: after the connection drops, how long to wait for ``appExited(_:)`` before
    ///     failing pending waits with ``BridgeError/connectionLost(reason:during:diagnostics:)``.
    ///   - diagnostics: called when a wait fails; its text (e.g. the app's last screen and exit
    ///     status) is attached to the error.
    public init(
        options: LaunchOptions = LaunchOptions(),
        maxFrameSize: Int = BridgeProtocol.defaultMaxFrameSize,
        eventLimit: Int = OutputLimit.standard,
        exitGrace: Duration = .milliseconds(500),
        diagnostics: @escaping @Sendable () -> String? = { nil }
    ) throws(BridgeError) {
        let directory = try Self.makePrivateDirectory()
        let socketPath = directory + "/bridge.sock"
        let token = Self.makeToken()
        var launchOptions = options
        launchOptions.bridgeSocketPath = socketPath
        launchOptions.bridgeToken = token
        self.directory = directory
        self.socketPath = socketPath
        self.launchOptions = launchOptions
        self.client = BridgeClient(
            token: token, maxFrameSize: maxFrameSize, eventLimit: eventLimit, exitGrace: exitGrace, diagnostics: diagnostics)
        let listener: UnixListener
        do { listener = try UnixListener(path: socketPath) } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw .setupFailed("cannot listen on \(socketPath): \(error)")
        }
        self.state = ListenerState(listener: listener, directory: directory, socketPath: socketPath)
        state.startAccepting(client: client, maxFrameSize: maxFrameSize)
    }

    deinit { close() }

    /// The argv flags to launch the app with (after its program path); never contains the token.
    public var arguments: [String] { launchOptions.arguments }

    /// The environment variables to add to the app's environment (the token).
    public var environment: [String: String] { launchOptions.environment }

    /// Waits until the app has connected, authenticated and said ready.
    ///
    /// Throws ``BridgeError/neverConnected(timeout:diagnostics:)``, ``BridgeError/notReady(timeout:diagnostics:)``,
    /// ``BridgeError/authenticationFailed(reason:diagnostics:)``, ``BridgeError/appExited(status:during:diagnostics:)``, ...
    public func waitForReady(timeout: Duration = .seconds(10)) async throws -> AppBridge {
        try await client.waitForReady(timeout: timeout)
        return AppBridge(client: client)
    }

    /// Tells the bridge the app process exited (e.g. `"exited with status 134"`): pending and
    /// future waits and calls fail at once with ``BridgeError/appExited(status:during:diagnostics:)``.
    public func appExited(_ status: String) {
        client.appExited(status)
    }

    /// Tells the bridge the app wrote its first byte to its terminal; call it on the event loop
    /// (a session's ``TerminalSession/Configuration/onFirstOutput``). A host connects before
    /// the app's first output (docs/PROTOCOL.md, section 5): when no connection came and none
    /// is waiting to be accepted, the app has no host, and pending and future waits fail at
    /// once with ``BridgeError/noHost(diagnostics:)`` instead of waiting for their timeout.
    package func appWroteOutput() {
        if !state.acceptWaitingConnection() { client.appWroteWithoutConnecting() }
    }

    /// Closes the connection and the socket and removes the private directory. Idempotent.
    public func close() {
        client.finish(.closed)
        state.close()
    }

    // MARK: - Setup helpers

    static func makePrivateDirectory() throws(BridgeError) -> String {
        var base = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        while base.hasSuffix("/") && base.count > 1 { base.removeLast() }
        // sun_path holds ~104 bytes: fall back to /tmp when TMPDIR is too deep.
        if base.utf8.count > 60 { base = "/tmp" }
        let directory: String
        do {
            directory = try Posix.makeTemporaryDirectory(template: base + "/harness-bridge.XXXXXX")
        } catch {
            throw .setupFailed(error.description)
        }
        guard let info = Posix.ownerAndMode(directory), info.isDirectory,
            info.owner == Posix.effectiveUserID(), info.mode == 0o700
        else {
            try? FileManager.default.removeItem(atPath: directory)
            throw .setupFailed("\(directory) is not a directory owned by this user with mode 0700")
        }
        return directory
    }

    static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let value = generator.next() as UInt64
            let hex = String(value, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}

/// The listener's mutable part: the listening socket and the one connection.
final class ListenerState: Sendable {
    private let listener: UnixListener
    private let connection = Locked<(current: FrameConnection?, closed: Bool)>((nil, false))
    private let directory: String
    private let socketPath: String

    init(listener: UnixListener, directory: String, socketPath: String) {
        self.listener = listener
        self.directory = directory
        self.socketPath = socketPath
    }

    /// Accepts the one connection, on the event loop (exactly one app per listener).
    func startAccepting(client: BridgeClient, maxFrameSize: Int) {
        listener.acceptOne { [weak self, weak client] result in
            guard let client else {
                if case .success(let fd) = result { UnixSocket.close(fd) }
                return
            }
            let accepted: Int32
            switch result {
            case .success(let fd): accepted = fd
            case .failure(let error):
                client.finish(.connectionLost("accept failed: \(error)"))
                return
            }
            let connection = FrameConnection(
                fd: accepted, decoder: FrameDecoder(maxFrameSize: maxFrameSize),
                onMessage: { [weak client] message in client?.receive(message) },
                onClose: { [weak client] reason in client?.connectionClosed(reason) })
            let keep = self?.connection.withLock { state in
                guard !state.closed else { return false }
                state.current = connection
                return true
            } ?? false
            guard keep, client.attach(connection) else {
                connection.close(reason: "the bridge is closed")
                return
            }
            connection.start()
        }
    }

    /// On the loop: accepts the connection now if one is waiting; whether one came (now or
    /// before).
    func acceptWaitingConnection() -> Bool {
        listener.acceptWaitingConnection()
    }

    func close() {
        let open = connection.withLock { state -> FrameConnection? in
            guard !state.closed else { return nil }
            state.closed = true
            defer { state.current = nil }
            return state.current
        }
        listener.close()
        open?.close(reason: "the test closed the bridge")
        UnixSocket.removeFile(socketPath)
        try? FileManager.default.removeItem(atPath: directory)
    }
}
