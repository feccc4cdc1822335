import HarnessCore

/// The programs the benchmark launches, with one small environment for the harness and the raw
/// baseline alike.
enum EchoPrograms {
    /// `PATH` and `TERM` only, so every launch copies the same few bytes.
    static let environment = ["PATH": "/usr/bin:/bin", "TERM": "xterm-256color"]

    /// What each concurrent session runs: prints "ready", then answers every line with "got <line>".
    static let lineEcho = #"stty -echo; printf "ready\n"; while read l; do printf "got %s\n" "$l"; done"#

    /// The line echo on an 80x24 pty.
    static func lineEcho(timeout: Duration) -> TerminalSession.Configuration {
        TerminalSession.Configuration(
            executable: "/bin/sh", arguments: ["-c", lineEcho], environment: environment, defaultTimeout: timeout)
    }

    /// The tiny program of the launch cycles and of launch to first byte.
    static let readyArguments = ["/bin/echo", "ready"]

    /// `/bin/echo ready` on an 80x24 pty.
    static func ready(timeout: Duration) -> TerminalSession.Configuration {
        TerminalSession.Configuration(
            executable: readyArguments[0], arguments: Array(readyArguments.dropFirst()), environment: environment,
            defaultTimeout: timeout)
    }

    /// The environment as `NAME=value` strings, for posix_spawn.
    static var environmentStrings: [String] { environment.map { "\($0.key)=\($0.value)" }.sorted() }
}
