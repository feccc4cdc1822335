/// Why a snapshot could not be taken, read or written.
public enum SnapshotError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `HARNESS_RECORD` holds a value that is not a record mode.
    case invalidRecordMode(String)
    /// A mask's regular expression does not compile.
    case invalidMaskPattern(pattern: String, reason: String)
    /// A value could not be encoded (by the `.json` strategy).
    case encodingFailed(type: String, reason: String)
    /// The strategy's snapshot function threw.
    case snapshotFailed(reason: String)
    /// The reference file exists but is not valid for the strategy's format (not UTF-8, say).
    case unreadableReference(path: String)
    /// A file or folder could not be written.
    case writeFailed(path: String, reason: String)
    /// A file could not be read.
    case readFailed(path: String, reason: String)

    /// A readable explanation.
    public var description: String {
        switch self {
        case .invalidRecordMode(let value):
            "HARNESS_RECORD=\(value.debugDescription) is not a record mode; use missing, all, failed or never"
        case let .invalidMaskPattern(pattern, reason):
            "snapshot mask \(pattern.debugDescription) is not a valid regular expression: \(reason)"
        case let .encodingFailed(type, reason):
            "could not encode a \(type) for its snapshot: \(reason)"
        case .snapshotFailed(let reason):
            "could not take the snapshot: \(reason)"
        case .unreadableReference(let path):
            "the reference snapshot at \(path) cannot be decoded (not valid UTF-8 text?); delete it to record it again"
        case let .writeFailed(path, reason):
            "could not write \(path): \(reason)"
        case let .readFailed(path, reason):
            "could not read \(path): \(reason)"
        }
    }
}
