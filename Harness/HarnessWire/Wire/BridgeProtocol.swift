/// Constants of the bridge protocol (see docs/PROTOCOL.md).
public enum BridgeProtocol {
    /// The protocol version both sides must speak; a mismatch is refused.
    public static let version = 2
    /// The default largest frame payload, in bytes (16 MiB).
    public static let defaultMaxFrameSize = 16 * 1024 * 1024
    /// The size of a frame's length prefix, in bytes (big-endian UInt32).
    public static let headerSize = 4
    /// The deepest JSON nesting the envelope scanner accepts.
    public static let maxJSONDepth = 512
    /// The members holding a raw JSON value. Each must be its envelope's last member:
    /// a receiver takes the value without parsing it, and checks it when it decodes it.
    public static let rawValueMembers: Set<String> = ["params", "result", "value"]
}

/// The error codes a reply or a refusal may carry, as they appear on the wire.
public enum BridgeErrorCode: String, Sendable, CaseIterable {
    /// No probe, handler or spy has the requested name; `available` lists the names.
    case unknownName
    /// The call's params do not decode as the handler's parameter type.
    case badParams
    /// The handler or probe threw; `message` describes the error.
    case handlerFailed
    /// The result could not be encoded as JSON or is larger than a frame.
    case badResult
    /// The hello's token is missing or wrong (refusal).
    case badToken
    /// The hello's protocol version is not the harness's (refusal).
    case versionMismatch
    /// The first message was not a hello (refusal).
    case protocolViolation
}
