/// One message on the bridge; each travels as one frame (see docs/PROTOCOL.md).
public enum BridgeMessage: Sendable, Equatable {
    /// App -> harness, first message: who connects and the secret token.
    case hello(version: Int, token: String, pid: Int, app: String)
    /// Harness -> app: the hello is accepted.
    case welcome(version: Int)
    /// Harness -> app: the hello is refused; the harness then closes the connection.
    case refused(code: String, reason: String)
    /// App -> harness: the app has declared its spies, probes and handlers and is ready for calls.
    case ready
    /// Harness -> app: call the probe, handler or built-in `name`.
    case call(id: UInt64, name: String, params: RawJSON)
    /// App -> harness: the result of call `id`, or why it failed.
    case reply(id: UInt64, result: Result<RawJSON, RemoteError>)
    /// App -> harness: an event published by the app; `seq` counts from 0 without gaps.
    case event(seq: UInt64, name: String, value: RawJSON)
    /// App -> harness: a spy recorded its `index`-th value (from 0).
    case record(spy: String, index: UInt64, value: RawJSON)
    /// Either way: the sender is closing the connection on purpose.
    case goodbye(reason: String)

    /// The message's `type` on the wire.
    public var typeName: String {
        switch self {
        case .hello: "hello"
        case .welcome: "welcome"
        case .refused: "refused"
        case .ready: "ready"
        case .call: "call"
        case .reply: "reply"
        case .event: "event"
        case .record: "record"
        case .goodbye: "goodbye"
        }
    }
}

/// A failed call, as carried by a reply's `error` object.
public struct RemoteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A ``BridgeErrorCode`` raw value (other codes are passed through).
    public var code: String
    /// A readable explanation from the app.
    public var message: String
    /// For `unknownName`: the names the app exposes.
    public var available: [String]?

    /// Creates a remote error.
    public init(code: String, message: String, available: [String]? = nil) {
        self.code = code
        self.message = message
        self.available = available
    }

    /// Creates a remote error with a known code.
    public init(_ code: BridgeErrorCode, _ message: String, available: [String]? = nil) {
        self.init(code: code.rawValue, message: message, available: available)
    }

    /// A readable explanation.
    public var description: String {
        var text = "\(code): \(message)"
        if let available { text += " (available: \(available.joined(separator: ", ")))" }
        return text
    }
}
