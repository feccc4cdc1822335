#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why the benchmark stopped.
enum ScaleBenchmarkError: Error, CustomStringConvertible {
    /// A bad command line (nil: `--help`).
    case usage(String?)
    /// A system call of the benchmark itself failed.
    case system(String, errno: Int32)
    /// A session step failed: which round and session, what it was doing, and the harness's error.
    case session(String, underlying: any Error)
    /// Something measured was not what the program printed.
    case unexpected(String)

    var description: String {
        switch self {
        case .usage(let message): return (message.map { "\($0)\n" } ?? "") + ScaleOptions.usage
        case .system(let call, let code): return "\(call) failed: \(String(cString: strerror(code))) (errno \(code))"
        case .session(let step, let underlying): return "\(step): \(underlying)"
        case .unexpected(let message): return message
        }
    }
}
