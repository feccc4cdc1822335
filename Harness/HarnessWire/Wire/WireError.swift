/// Why bytes on the bridge could not be turned into messages (or messages into bytes).
///
/// After a ``FrameDecoder`` throws, the stream is out of step and the connection must be dropped.
public enum WireError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A frame's declared length exceeds the limit.
    case frameTooLarge(length: Int, limit: Int)
    /// A frame has a length of zero.
    case emptyFrame
    /// A frame's payload is not well-formed JSON (offset into the payload).
    case malformedJSON(offset: Int, reason: String)
    /// A frame's payload is JSON but not an object.
    case notAnObject
    /// The message has no `type` or an unknown one.
    case unknownMessageType(String)
    /// A required field is missing.
    case missingField(type: String, field: String)
    /// A field has the wrong JSON type or an out-of-range value.
    case invalidField(type: String, field: String, expected: String)

    /// A readable explanation.
    public var description: String {
        switch self {
        case .frameTooLarge(let length, let limit):
            "bridge frame of \(length) bytes exceeds the limit of \(limit) bytes"
        case .emptyFrame: "bridge frame has length 0"
        case .malformedJSON(let offset, let reason): "bridge frame is not valid JSON at byte \(offset): \(reason)"
        case .notAnObject: "bridge frame is JSON but not an object"
        case .unknownMessageType(let type): "bridge message has unknown type '\(type)'"
        case .missingField(let type, let field): "bridge message '\(type)' lacks field '\(field)'"
        case .invalidField(let type, let field, let expected):
            "bridge message '\(type)' field '\(field)' must be \(expected)"
        }
    }
}
