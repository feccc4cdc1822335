import HarnessSystem

/// Everything that can go wrong when launching or waiting on a ``PipedSession``.
///
/// A program that exits with a non-zero code or dies by a signal is not an error: that is the
/// ``ExitStatus`` of its result.
public enum PipedSessionError: Error, Sendable, CustomStringConvertible, SourceLocatedError {
    /// No file exists at the path, or the name was not found in `PATH`. Nothing was spawned.
    case executableNotFound(String)
    /// The file exists but is a directory or lacks execute permission. Nothing was spawned.
    case notExecutable(String)
    /// The configuration is unusable (an empty executable name, a missing working directory).
    case invalidConfiguration(String)
    /// The file given as standard input cannot be opened. Nothing was spawned.
    case standardInputUnreadable(path: String, PosixError)
    /// A system call failed while launching (a pipe, fork, `execve` in the child...).
    case launchFailed(executable: String, PosixError)
    /// The program was still running when the wait's time was up. The tails are the ends of
    /// what it had written so far, escaped (``PrintableBytes``).
    /// `location` is where the wait was written (set by ``PipedSession/waitForExit(timeout:fileID:filePath:line:column:)``).
    case timeout(executable: String, after: Duration, standardOutputTail: String, standardErrorTail: String,
                 location: SourceSite? = nil)
    /// The program exited, but its standard output or error was still open when the wait's time
    /// was up: a process it started (in the background, say) holds the pipe. Reading stops there.
    case outputStillOpen(executable: String, status: ExitStatus, after: Duration,
                         standardOutputTail: String, standardErrorTail: String, location: SourceSite? = nil)

    /// A readable explanation; waits that ran out of time show the tails of both streams. A
    /// launch that failed is told in the words of the same ``TerminalSessionError``.
    public var description: String {
        switch self {
        case .timeout(_, _, _, _, let location?), .outputStillOpen(_, _, _, _, _, let location?):
            return "\(location.fileID):\(location.line): " + failureMessage
        default:
            return failureMessage
        }
    }

    /// Where the wait was written, when known (the test framework glue records the failure there).
    public var failureSite: SourceSite? {
        switch self {
        case .timeout(_, _, _, _, let location), .outputStillOpen(_, _, _, _, _, let location): location
        default: nil
        }
    }

    /// This error with the place the wait was written, when it is a wait's error without one.
    func at(_ location: SourceCodeLocation) -> PipedSessionError {
        switch self {
        case .timeout(let executable, let after, let output, let error, nil):
            .timeout(executable: executable, after: after, standardOutputTail: output, standardErrorTail: error, location: location.site)
        case .outputStillOpen(let executable, let status, let after, let output, let error, nil):
            .outputStillOpen(executable: executable, status: status, after: after, standardOutputTail: output,
                             standardErrorTail: error, location: location.site)
        default:
            self
        }
    }

    /// The explanation without the place the wait was written.
    public var failureMessage: String {
        switch self {
        case .executableNotFound(let path):
            return TerminalSessionError.executableNotFound(path).description
        case .notExecutable(let path):
            return TerminalSessionError.notExecutable(path).description
        case .launchFailed(let executable, let error):
            return TerminalSessionError.launchFailed(executable: executable, error).description
        case .invalidConfiguration(let reason):
            return "Invalid piped session configuration: \(reason)"
        case .standardInputUnreadable(let path, let error):
            return "Cannot read the standard input file \(path): \(error)"
        case .timeout(let executable, let after, let standardOutputTail, let standardErrorTail, _):
            return """
                Timed out after \(TerminalSessionError.format(after)) waiting for \(executable) to exit (it still runs).
                \(standardOutputTail)
                \(standardErrorTail)
                """
        case .outputStillOpen(let executable, let status, let after, let standardOutputTail, let standardErrorTail, _):
            return """
                \(executable) \(status), but its output was still open after \(TerminalSessionError.format(after)) \
                (a process it started holds stdout or stderr); stopped reading there.
                \(standardOutputTail)
                \(standardErrorTail)
                """
        }
    }
}
