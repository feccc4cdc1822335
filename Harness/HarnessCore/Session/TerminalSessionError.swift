import HarnessSystem

/// Everything that can go wrong when launching, driving or waiting on a `TerminalSession`.
public enum TerminalSessionError: Error, Sendable, CustomStringConvertible, SourceLocatedError {
    /// No file exists at the path, or the name was not found in `PATH`. Nothing was spawned.
    case executableNotFound(String)
    /// The file exists but is a directory or lacks execute permission. Nothing was spawned.
    case notExecutable(String)
    /// The configuration is unusable (an empty executable name, a size below 1x1, ...).
    case invalidConfiguration(String)
    /// A system call failed while launching (opening the pty, forking, `execve` in the child...).
    case launchFailed(executable: String, PosixError)
    /// A system call failed while talking to the running program.
    case ioFailed(PosixError)
    /// Input was sent after the session was terminated.
    case sessionTerminated
    /// A `waitFor(regex:)` pattern does not compile.
    case invalidRegex(pattern: String, reason: String)
    /// A wait ran out of time: what it awaited, the screen it checked last, what that screen
    /// showed instead, the output and the last bytes (``WaitFailure``).
    case timeout(WaitFailure)
    /// The program ended while a wait was pending and neither its final screen
    /// (`failure.screen`) nor its output satisfies it.
    case exitedWhileWaiting(WaitFailure, status: ExitStatus)

    /// A readable, multi-line explanation including the screen where there is one, after the
    /// place the wait was written when known (`Tests/LoginTests.swift:42: Timed out ...`).
    public var description: String {
        switch self {
        case .timeout(let failure), .exitedWhileWaiting(let failure, _):
            return Self.prefix(failure.location) + failureMessage
        default:
            return failureMessage
        }
    }

    /// Where the wait was written, when known (the test framework glue records the failure there).
    public var failureSite: SourceSite? {
        switch self {
        case .timeout(let failure), .exitedWhileWaiting(let failure, _): failure.location?.site
        default: nil
        }
    }

    /// The explanation without the place the wait was written.
    public var failureMessage: String {
        switch self {
        case .executableNotFound(let path):
            return "Executable not found: \(path) (no such file, or not found in PATH)"
        case .notExecutable(let path):
            return "Not executable: \(path) (a directory, or no execute permission)"
        case .invalidConfiguration(let reason):
            return "Invalid terminal session configuration: \(reason)"
        case .launchFailed(let executable, let error):
            return "Could not launch \(executable): \(error)"
        case .ioFailed(let error):
            return "Terminal I/O failed: \(error)"
        case .sessionTerminated:
            return "The terminal session was already terminated"
        case .invalidRegex(let pattern, let reason):
            return "Invalid regular expression \(pattern.debugDescription): \(reason)"
        case .timeout(let failure):
            return """
                \(failure.timeoutHeadline)\(failure.nearMissDetails.map { "\n" + $0 } ?? "")
                Screen:
                \(failure.screen.framed())
                Output since the last output match:
                \(failure.output)
                Last bytes received: \(failure.lastBytes.isEmpty ? "(none)" : failure.lastBytes)
                """
        case .exitedWhileWaiting(let failure, let status):
            return """
                \(failure.exitHeadline(status))\(failure.nearMissDetails.map { "\n" + $0 } ?? "")
                Last screen:
                \(failure.screen.framed())
                Output since the last output match:
                \(failure.output)
                """
        }
    }

    /// The wait's failure, for a timeout or an exit while waiting.
    package var waitFailure: WaitFailure? {
        switch self {
        case .timeout(let failure), .exitedWhileWaiting(let failure, _): failure
        default: nil
        }
    }

    /// This wait error with its failure changed by `change` (other errors as they are).
    package func updatingFailure(_ change: (inout WaitFailure) -> Void) -> TerminalSessionError {
        switch self {
        case .timeout(var failure):
            change(&failure)
            return .timeout(failure)
        case .exitedWhileWaiting(var failure, let status):
            change(&failure)
            return .exitedWhileWaiting(failure, status: status)
        default:
            return self
        }
    }

    /// This error with the place the wait was written, when it is a wait's error without one.
    func at(_ location: SourceCodeLocation) -> TerminalSessionError {
        updatingFailure { if $0.location == nil { $0.location = location } }
    }

    /// `"Tests/LoginTests.swift:42: "` (the file as `#fileID` names it), or "" without a location.
    private static func prefix(_ location: SourceCodeLocation?) -> String {
        location.map { "\($0.fileID):\($0.line): " } ?? ""
    }

    /// `"1.5 s"`, `"200 ms"`.
    static func format(_ duration: Duration) -> String {
        let milliseconds = duration.wholeMilliseconds
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        let whole = milliseconds / 1000
        let fraction = milliseconds % 1000
        if fraction == 0 { return "\(whole) s" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits) s"
    }
}
