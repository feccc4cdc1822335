import Foundation
import TerminalEmulator

extension TerminalSession {
    /// What to launch and how: the program, its arguments, environment, working directory,
    /// terminal size and the default timeout of waits.
    ///
    /// ```swift
    /// let session = try TerminalSession.launch(.init(executable: "sh", arguments: ["-c", "echo hi"]))
    /// ```
    public struct Configuration: Sendable {
        /// A path (absolute, or relative to the current directory) or a name looked up in `PATH`.
        public var executable: String
        /// Arguments after `argv[0]` (which is `executable` as given).
        public var arguments: [String]
        /// The program's whole environment (default: this process's made hermetic, see
        /// ``ProgramEnvironment``). `TERM=xterm-256color` is added unless `TERM` is set.
        /// `PATH` from here is also used to find `executable`.
        public var environment: [String: String]
        /// The program's working directory; nil keeps the current one.
        public var workingDirectory: String?
        /// The terminal size at launch.
        public var size: TerminalSize
        /// The timeout of waits that do not pass one.
        public var defaultTimeout: Duration
        /// Light or dark: the colours the emulator answers OSC 10/11 queries with, and the
        /// palette of its screen's pictures (``ScreenSnapshot/theme``). The environment's
        /// `COLORFGBG` is the caller's (``ProgramEnvironment/hermetic(_:for:theme:)``).
        public var theme: TerminalTheme = .dark
        /// Called on the harness's event loop with every chunk the program writes, in order, after the
        /// screen was updated (`harness record` forwards the output to the user's terminal).
        public var onOutput: (@Sendable ([UInt8]) -> Void)?
        /// Called once on the harness's event loop when the program's first byte arrives, before
        /// anything else sees it (the bridge's proof that an app without a connection has no
        /// host: ``BridgeListener/appWroteOutput()``). The exit is always reported after it.
        package var onFirstOutput: (@Sendable () -> Void)?
        /// How long a synchronized frame (mode 2026) may stay held before the screen shows the
        /// update anyway, as terminals do (150 ms, like foot and kitty): a program that set the
        /// mode and stalls is not frozen forever. Each release by the limit is a
        /// ``TerminalNotice`` (``TerminalSession/notices``) and a line of the trace.
        public var synchronizedOutputLimit: Duration = .milliseconds(150)
        /// The most bytes the session's recording keeps (``OutputLimit``: 64 MiB unless
        /// `HARNESS_OUTPUT_LIMIT` says otherwise): past it the oldest events are dropped, a
        /// ``TerminalNotice`` says so once, and the recording counts them
        /// (``TerminalRecording/droppedByteCount``). The screen, its scrollback (the last
        /// 10,000 lines) and the output stream (the last MiB) have bounds of their own.
        public var outputLimit: Int = OutputLimit.standard
        /// How long, after the program was reaped, the session keeps reading its terminal for
        /// processes that still hold it (a background job writing its last words) before it
        /// reports the exit anyway; see ``SessionCore``'s reader. Tests of that wait lengthen it,
        /// so that the exit they await is reported by the terminal's end, not by this clock.
        package var lingeringTerminalGrace: Duration = .milliseconds(500)

        /// Creates a configuration; the environment defaults to the current process's, made
        /// hermetic for a terminal (``ProgramEnvironment/hermetic(_:for:)``).
        public init(
            executable: String,
            arguments: [String] = [],
            environment: [String: String] = ProgramEnvironment.hermetic(for: .terminal),
            workingDirectory: String? = nil,
            size: TerminalSize = .standard,
            defaultTimeout: Duration = .seconds(10)
        ) {
            self.executable = executable
            self.arguments = arguments
            self.environment = environment
            self.workingDirectory = workingDirectory
            self.size = size
            self.defaultTimeout = defaultTimeout
        }

        /// The environment the program receives, as `NAME=value` strings.
        var effectiveEnvironment: [String] {
            var environment = environment
            if environment["TERM"] == nil { environment["TERM"] = "xterm-256color" }
            return environment.map { "\($0.key)=\($0.value)" }.sorted()
        }
    }
}
