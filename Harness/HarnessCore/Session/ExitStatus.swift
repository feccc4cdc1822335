import HarnessSystem

/// How a program ended: a process exit is data, not an error.
public enum ExitStatus: Sendable, Hashable, CustomStringConvertible {
    /// The program called `exit` (or returned from `main`) with this code.
    case exited(Int32)
    /// The program was ended by this signal.
    case signaled(Int32)

    /// `"exited with code 3"` or `"killed by signal 9 (SIGKILL)"`.
    public var description: String {
        switch self {
        case .exited(let code):
            return "exited with code \(code)"
        case .signaled(let signal):
            if let name = Posix.signalName(signal) { return "killed by signal \(signal) (\(name))" }
            return "killed by signal \(signal)"
        }
    }

    /// Whether the program exited with code 0.
    public var isSuccess: Bool { self == .exited(0) }
}

extension ExitStatus {
    /// The status HarnessSystem reaped.
    init(_ status: Posix.WaitStatus) {
        switch status {
        case .exited(let code): self = .exited(code)
        case .signaled(let signal): self = .signaled(signal)
        }
    }
}
