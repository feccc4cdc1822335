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
    /// A wait ran out of time. `screen` is framed so trailing blanks show; `lastBytes` is the
    /// escaped printable form of the last bytes the program wrote; `output` is the end of the
    /// printed text after the output cursor (what an output wait could have matched).
    /// `location` is where the wait was written (set by the public waits; nil inside the core).
    case timeout(waitingFor: String, after: Duration, screen: String, lastBytes: String, output: String,
                 location: SourceCodeLocation? = nil)
    /// The program ended while a wait was pending and neither its final screen nor its output
    /// satisfies it. `output` is the end of the printed text after the output cursor.
    case exitedWhileWaiting(waitingFor: String, status: ExitStatus, screen: String, output: String,
                            location: SourceCodeLocation? = nil)

    /// A readable, multi-line explanation including the screen where there is one, after the
    /// place the wait was written when known (`Tests/LoginTests.swift:42: Timed out ...`).
    public var description: String {
        switch self {
        case .timeout(_, _, _, _, _, let location), .exitedWhileWaiting(_, _, _, _, let location):
            return Self.prefix(location) + failureMessage
        default:
            return failureMessage
        }
    }

    /// Where the wait was written, when known (the test framework glue records the failure there).
    public var failureSite: SourceSite? {
        switch self {
        case .timeout(_, _, _, _, _, let location), .exitedWhileWaiting(_, _, _, _, let location): location?.site
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
        case .timeout(let waitingFor, let after, let screen, let lastBytes, let output, _):
            return """
                Timed out after \(Self.format(after)) waiting for \(waitingFor).
                Screen:
                \(screen)
                Output since the last output match:
                \(output)
                Last bytes received: \(lastBytes.isEmpty ? "(none)" : lastBytes)
                """
        case .exitedWhileWaiting(let waitingFor, let status, let screen, let output, _):
            return """
                The program \(status) while waiting for \(waitingFor).
                Last screen:
                \(screen)
                Output since the last output match:
                \(output)
                """
        }
    }

    /// This error with the place the wait was written, when it is a wait's error without one.
    func at(_ location: SourceCodeLocation) -> TerminalSessionError {
        switch self {
        case .timeout(let waitingFor, let after, let screen, let lastBytes, let output, nil):
            return .timeout(waitingFor: waitingFor, after: after, screen: screen, lastBytes: lastBytes, output: output,
                            location: location)
        case .exitedWhileWaiting(let waitingFor, let status, let screen, let output, nil):
            return .exitedWhileWaiting(waitingFor: waitingFor, status: status, screen: screen, output: output,
                                       location: location)
        default:
            return self
        }
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
