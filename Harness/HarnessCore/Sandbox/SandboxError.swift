/// Why a sandbox operation failed.
public enum SandboxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The sandbox directory could not be created.
    case creationFailed(String)
    /// A name is empty, absolute, or climbs out of the sandbox with `..`.
    case invalidName(String)
    /// The file does not exist in the sandbox.
    case missingFile(name: String, sandbox: String, present: [String])
    /// Reading, writing or copying failed.
    case ioFailed(operation: String, name: String, reason: String)
    /// The sandbox was already removed.
    case removed(String)

    /// A readable explanation.
    public var description: String {
        switch self {
        case .creationFailed(let reason): "cannot create a sandbox: \(reason)"
        case .invalidName(let name): "'\(name)' is not a relative path inside the sandbox"
        case .missingFile(let name, let sandbox, let present):
            "no file '\(name)' in sandbox \(sandbox); it holds: " + (present.isEmpty ? "(nothing)" : present.joined(separator: ", "))
        case .ioFailed(let operation, let name, let reason): "cannot \(operation) '\(name)' in the sandbox: \(reason)"
        case .removed(let path): "sandbox \(path) was already removed"
        }
    }
}
