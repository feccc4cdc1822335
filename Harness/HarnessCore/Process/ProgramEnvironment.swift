import Foundation
import TerminalEmulator

/// What a launched program's environment holds by default: the runner's, made the same on every
/// machine.
///
/// The harness emulates one terminal, so the program is told that one, whatever terminal (or
/// none) the runner has: `TERM=xterm-256color` and `COLORTERM=truecolor` in a terminal,
/// `TERM=dumb` and no `COLORTERM` on pipes; in a terminal `COLORFGBG` says the terminal's theme
/// (``TerminalTheme``: `15;0` dark, the default, `0;15` light). Variables that force or suppress colour
/// (`NO_COLOR`, `FORCE_COLOR`, `CLICOLOR`...), that describe the runner's own terminal
/// (`TERM_PROGRAM`, `TMUX`, `COLUMNS`...) or its locale (`LC_*`, `LANGUAGE`) are not inherited,
/// and the locale is `LANG=C.UTF-8`. Everything else (`PATH`, `HOME`, `USER`, `TMPDIR`...) is
/// inherited as it is. A variable the test sets explicitly (a flow's `env` line,
/// ``AppLaunch/environment``) always wins.
///
/// ```swift
/// let environment = ProgramEnvironment.hermetic(["TERM": "xterm", "NO_COLOR": "1", "HOME": "/home/me"], for: .terminal)
/// // ["TERM": "xterm-256color", "COLORTERM": "truecolor", "COLORFGBG": "15;0", "LANG": "C.UTF-8", "HOME": "/home/me"]
/// ```
public enum ProgramEnvironment {
    /// Where the program's output goes.
    public enum Output: Sendable {
        /// A pseudo-terminal read by the harness's emulator.
        case terminal
        /// Pipes (no terminal): `launch pipes`, ``PipedSession``.
        case pipes
    }

    /// The terminal type the emulator implements.
    package static let terminalType = "xterm-256color"
    /// The locale every program gets: UTF-8, with C's messages, sorting and formats.
    package static let locale = "C.UTF-8"

    /// Inherited variables the program never sees (unless set explicitly): those that force or
    /// suppress colour, and those that describe the runner's own terminal or multiplexer, which
    /// is not the program's. `TERM`, `COLORTERM`, `LANG`, `LC_*` and `LANGUAGE` are replaced
    /// or removed as well.
    package static let removedVariables: [String] = [
        // Colour on or off, whatever the terminal says.
        "NO_COLOR", "FORCE_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "NODE_DISABLE_COLORS",
        "PY_COLORS", "PYTHON_COLORS", "ANSI_COLORS_DISABLED", "TTY_COMPATIBLE",
        // The runner's terminal: its name, version, background colour and size.
        "COLORFGBG", "TERM_PROGRAM", "TERM_PROGRAM_VERSION", "TERMCAP", "VTE_VERSION",
        "KONSOLE_VERSION", "WT_SESSION", "KITTY_WINDOW_ID", "ITERM_SESSION_ID", "TERMINAL_EMULATOR",
        "LINES", "COLUMNS",
        // A multiplexer the program does not run in.
        "TMUX", "TMUX_PANE", "STY",
    ]

    /// Whether an inherited variable is left out (``removedVariables``, the terminal's and the
    /// locale's).
    package static func isRemoved(_ name: String) -> Bool {
        name == "TERM" || name == "COLORTERM" || name == "LANG" || name == "LANGUAGE" || name.hasPrefix("LC_")
            || removedVariables.contains(name)
    }

    /// `inherited` (default: this process's environment) made hermetic for a program whose
    /// output goes to `output`: every ``isRemoved(_:)`` variable left out, then `TERM`,
    /// `COLORTERM` and `COLORFGBG` (terminal only, the latter from `theme`) and `LANG` set.
    public static func hermetic(
        _ inherited: [String: String] = ProcessInfo.processInfo.environment, for output: Output, theme: TerminalTheme = .dark
    ) -> [String: String] {
        var result = inherited.filter { !isRemoved($0.key) }
        switch output {
        case .terminal:
            result["TERM"] = terminalType
            result["COLORTERM"] = "truecolor"
            result["COLORFGBG"] = theme.colorFGBG
        case .pipes:
            result["TERM"] = "dumb"
        }
        result["LANG"] = locale
        return result
    }
}
