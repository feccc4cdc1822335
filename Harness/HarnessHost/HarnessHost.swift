import Foundation
import HarnessSystem
import HarnessWire

/// The app-side agent of the harness: reads the launch options (flags in argv, or the
/// `HARNESS_*` variables of the environment carrier), connects the bridge, and serves the
/// spies, probes and handlers the app declares.
///
/// Without harness flags and variables it is inert: `start` returns no host and opens
/// no socket, starts no thread and touches no file. Flags and variables together are a
/// ``LaunchOptionsError/bothCarriers(flags:variables:)`` (docs/PROTOCOL.md section 1).
///
/// ```swift
/// let launch = try HarnessHost.start()
/// let arguments = launch.remainingArguments          // parse the app's own args from these
/// if let host = launch.host {
///     host.probe("state") { store.snapshot() }         // must be thread-safe
///     host.handle("given", as: AppState.self) { state in store.replace(with: state) }
///     host.ready()
/// }
/// ```
///
/// Threading: probes and synchronous handlers run on the thread that serves the bridge (the
/// process's one event loop thread, started with the connection), one at a time; make them
/// thread-safe (a lock, or hop to your own queue) and keep them short: they must not block.
/// Async handlers run in a detached task. `publish`, `Spy.record`, `ready` and `close` may be called
/// from any thread or task and never block on the harness: frames are written at
/// once when the socket has room, otherwise queued (bounded) and dropped with a
/// counter (``droppedMessageCount``) if the harness stalls. If the harness goes away,
/// the host becomes inert again and the app carries on.
public final class HarnessHost: Sendable {
    /// What kind of name a call targets, as listed by `__names`.
    enum CallKind: String { case probe, handler }

    /// A registered probe or handler.
    struct CallEntry {
        let kind: CallKind
        let body: Body
    }

    /// How a call is run: inline on the event loop's thread, or in a task.
    enum Body {
        case sync(@Sendable (RawJSON) -> Result<RawJSON, RemoteError>)
        case async(@Sendable (RawJSON) async -> Result<RawJSON, RemoteError>)
    }

    /// The launch options the host was started with.
    public let options: LaunchOptions
    /// The app name sent in the hello.
    public let appName: String

    /// What the host's methods share, from any thread, under one lock (which also orders the
    /// events and records sent).
    struct State {
        var connection: FrameConnection?
        var entries: [String: CallEntry] = [:]
        var spyValues: [String: [RawJSON]] = [:]
        var nextEventSequence: UInt64 = 0
        var oversizedDrops = 0
        var sentReady = false
    }

    let maxFrameSize: Int
    let state = Locked(State())

    init(options: LaunchOptions, appName: String, maxFrameSize: Int) {
        self.options = options
        self.appName = appName
        self.maxFrameSize = maxFrameSize
    }

    // MARK: - Start

    /// Reads the harness launch options (argv or environment) and, when they name a bridge,
    /// connects it.
    ///
    /// Call it before the app writes anything to its terminal: the harness takes output from an
    /// app that has not connected as proof that it has no host, and fails its launch at once
    /// (docs/PROTOCOL.md, section 5). The connection is made before this returns.
    ///
    /// - Parameters:
    ///   - arguments: the whole argv (program path first).
    ///   - environment: where the token (`HARNESS_BRIDGE_TOKEN`) and the environment
    ///     carrier's variables are read from.
    ///   - appName: the name sent in the hello; defaults to the process name.
    ///   - handshakeTimeout: how long to wait for the harness's welcome. The harness that
    ///     launched the app answers at once, and one that is gone refuses the connection, so the
    ///     limit only catches a harness that hangs: a short one made a loaded machine's app give
    ///     up on a harness that was merely slow.
    /// - Throws: ``LaunchOptionsError`` when a harness flag is malformed. Connection
    ///   problems do not throw: they are returned in ``HarnessLaunch/bridgeError``.
    public static func start(
        arguments: [String] = CommandLine.arguments,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        appName: String? = nil,
        handshakeTimeout: Duration = .seconds(60),
        maxFrameSize: Int = BridgeProtocol.defaultMaxFrameSize
    ) throws(LaunchOptionsError) -> HarnessLaunch {
        let parsed = try LaunchOptions.parse(arguments: arguments, environment: environment)
        guard let options = parsed.options, let path = options.bridgeSocketPath else {
            return HarnessLaunch(
                options: parsed.options, remainingArguments: parsed.remainingArguments, host: nil, bridgeError: nil)
        }
        let name = appName ?? ProcessInfo.processInfo.processName
        let host = HarnessHost(options: options, appName: name, maxFrameSize: maxFrameSize)
        do {
            try host.connect(path: path, timeout: handshakeTimeout)
            return HarnessLaunch(
                options: options, remainingArguments: parsed.remainingArguments, host: host, bridgeError: nil)
        } catch {
            return HarnessLaunch(
                options: options, remainingArguments: parsed.remainingArguments, host: nil, bridgeError: error)
        }
    }

    private func connect(path: String, timeout: Duration) throws(HarnessHostError) {
        let milliseconds = Int(clamping: timeout.wholeMilliseconds)
        let fd: Int32
        do { fd = try UnixSocket.connect(path: path) } catch { throw .connectFailed(path: path, error) }
        var decoder = FrameDecoder(maxFrameSize: maxFrameSize)
        let hello = BridgeMessage.hello(
            version: BridgeProtocol.version, token: options.bridgeToken ?? "",
            pid: Int(ProcessInfo.processInfo.processIdentifier), app: appName)
        let answer: BridgeMessage
        do {
            try UnixSocket.sendAll(fd, try! BridgeFrame.encode(hello), timeoutMilliseconds: milliseconds)
            answer = try UnixSocket.receiveMessage(fd, decoder: &decoder, timeoutMilliseconds: milliseconds)
        } catch {
            UnixSocket.close(fd)
            throw .handshakeFailed(error.description)
        }
        switch answer {
        case .welcome:
            break
        case .refused(let code, let reason):
            UnixSocket.close(fd)
            throw .refused(code: code, reason: reason)
        default:
            UnixSocket.close(fd)
            throw .unexpectedMessage(answer.typeName)
        }
        let connection = FrameConnection(
            fd: fd, decoder: decoder,
            // Strong on purpose: the bridge keeps the host alive while it is connected.
            onMessage: { [self] message in receive(message) },
            onClose: { [self] _ in connectionClosed() })
        state.withLock { $0.connection = connection }
        connection.start()
    }

    // MARK: - State

    /// Whether the bridge is connected (false once the harness went away).
    public var isConnected: Bool { state.withLock { $0.connection?.isOpen ?? false } }

    /// How many outgoing messages were dropped (queue full, or larger than a frame).
    public var droppedMessageCount: Int {
        state.withLock { $0.oversizedDrops + ($0.connection?.droppedFrameCount ?? 0) }
    }

    /// Tells the harness the app has declared its names and is ready for calls. Sent once.
    public func ready() {
        state.withLock { state in
            guard !state.sentReady else { return }
            state.sentReady = true
            send(.ready, &state)
        }
    }

    /// Says goodbye and closes the bridge; the host is inert afterwards. Idempotent.
    public func close() {
        let connection = state.withLock { state -> FrameConnection? in
            send(.goodbye(reason: "the app closed the bridge"), &state)
            defer { state.connection = nil }
            return state.connection
        }
        connection?.close(reason: "the app closed the bridge", flush: true)
    }

    func connectionClosed() {
        state.withLock { $0.connection = nil }
    }

    /// Sends a message, from inside `state.withLock` (so events and records leave in the
    /// order they were made).
    func send(_ message: BridgeMessage, _ state: inout State) {
        guard let connection = state.connection else { return }
        guard let frame = try? BridgeFrame.encode(message, maxFrameSize: maxFrameSize) else {
            state.oversizedDrops += 1
            return
        }
        connection.send(frame)
    }
}
