import Foundation
import TerminalEmulator
import HarnessSystem

/// Waits on what the program reports through OSC sequences: the shell's command marks
/// (OSC 133), the title (OSC 0/2) and clipboard writes (OSC 52).
extension TerminalDriving {
    // MARK: - Shell commands

    /// Waits until a shell command finishes (its OSC 133 D mark) and returns it: the first
    /// command that was not finished when input was last sent (typed, pressed, pasted...), or,
    /// after a previous `waitForCommand`, the first after the one it returned. So a command that
    /// finished before the wait began is still seen, and each call sees one command.
    ///
    /// When no command runs, the wait waits for one to start and finish. The program must mark
    /// its prompts (docs/FLOWS.md, "Shell integration"); a program that sends no marks makes the
    /// wait time out.
    ///
    /// ```swift
    /// try session.type("(exit 3)\r")
    /// let command = try await session.waitForCommand()
    /// #expect(command.exitStatus == 3)
    /// ```
    @discardableResult
    public func waitForCommand(
        timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> ShellCommand {
        let horizon = core.currentCommandHorizon
        let screen = try await CallSiteFailures.reporting("\(filePath)") {
            do {
                return try await waitFor(
                    "a shell command to finish (OSC 133 D mark)", timeout: timeout,
                    fileID: fileID, filePath: filePath, line: line, column: column,
                    where: { Self.firstFinishedCommand(on: $0, from: horizon) != nil })
            } catch let error as TerminalSessionError {
                throw error.updatingFailure { $0.nearMiss = Self.commandWaitState(on: $0.screen) }
            }
        }
        guard let command = Self.firstFinishedCommand(on: screen, from: horizon) else {
            preconditionFailure("a command wait resolved without a finished command")
        }
        core.advanceCommandHorizon(to: command.number + 1)
        return command
    }

    /// The first command numbered `horizon` or later that finished.
    static func firstFinishedCommand(on screen: ScreenSnapshot, from horizon: Int) -> ShellCommand? {
        screen.shellCommands.first { $0.number >= horizon && $0.phase == .finished && $0.ran }
    }

    /// The command a running `waitForCommand` waits for on `screen`, as a sentence for its
    /// failure: `"sleep 9" is running`, `no command is running`, `the program sent no OSC 133 marks`.
    static func commandWaitState(on screen: ScreenSnapshot) -> String {
        let commands = screen.shellCommands
        guard let last = commands.last else { return "the program sent no OSC 133 shell marks" }
        if last.phase == .running { return "\(last.commandText.map(\.debugDescription) ?? "a command") is running" }
        return "no command is running (the shell is at its \(last.phase == .finished ? "last command's end" : "prompt"))"
    }

    // MARK: - Title

    /// Waits until the title (OSC 0 or 2) is exactly `title`; returns the screen. A failure
    /// says what the title of the last screen the wait checked was.
    @discardableResult
    public func waitFor(
        title: String, timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> ScreenSnapshot {
        try await waitFor(.title, .text(title), timeout: timeout,
                          location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Waits until the regular expression `pattern` matches the title (as `waitFor(regex:)` matches
    /// a screen line); returns the screen.
    @discardableResult
    public func waitFor(
        titleRegex pattern: String, timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> ScreenSnapshot {
        try await waitFor(.title, .regex(pattern), timeout: timeout,
                          location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    // MARK: - Clipboard

    /// Waits until the program's last clipboard write (OSC 52) is exactly `text`; returns the
    /// screen. The harness never touches a real clipboard and never answers a read. A failure
    /// names the last writes of the last screen the wait checked.
    @discardableResult
    public func waitFor(
        clipboard text: String, timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> ScreenSnapshot {
        try await waitFor(.clipboard, .text(text), timeout: timeout,
                          location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Waits until `pattern` matches the program's last clipboard write; returns the screen.
    @discardableResult
    public func waitFor(
        clipboardRegex pattern: String, timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> ScreenSnapshot {
        try await waitFor(.clipboard, .regex(pattern), timeout: timeout,
                          location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    // MARK: - The one title and clipboard wait

    /// The one wait on a value the program reports (the title, the last clipboard write), for
    /// the Swift waits above and the flow steps `expect-title` and `expect-clipboard`: exact text
    /// or a regex (matched as the screen's lines are, giving up at the wait's deadline). Its
    /// failure's ``WaitFailure/nearMiss`` says what the checked screen reported instead.
    @discardableResult
    package func waitFor(
        _ value: ReportedValue, _ pattern: ReportedValue.Pattern, timeout: Duration?, location: SourceCodeLocation
    ) async throws -> ScreenSnapshot {
        let matches: @Sendable (String) -> Bool
        switch pattern {
        case .text(let text): matches = { $0 == text }
        case .regex(let regex):
            let compiled = try CompiledRegex(lines: regex).within(timeout ?? core.defaultTimeout)
            matches = { compiled.matches($0) }
        }
        return try await CallSiteFailures.reporting("\(location.filePath)") {
            do {
                return try await waitFor(
                    value.awaited(pattern), timeout: timeout,
                    fileID: location.fileID, filePath: location.filePath, line: location.line, column: location.column,
                    where: { screen in value.reported(on: screen).map(matches) ?? false })
            } catch let error as TerminalSessionError {
                throw error.updatingFailure { $0.nearMiss = value.seen(on: $0.screen) }
            }
        }
    }
}

/// A value the program reports through an OSC sequence that a wait can await.
package enum ReportedValue: Sendable {
    /// The window title (OSC 0 or 2).
    case title
    /// The text of the last clipboard write (OSC 52).
    case clipboard

    /// Exact text or a regular expression, matched as a screen line is.
    package enum Pattern: Sendable {
        case text(String)
        case regex(String)
    }

    /// What a wait on `pattern` awaits: `the title "x"`, `a clipboard write matching /x/`.
    func awaited(_ pattern: Pattern) -> String {
        switch (self, pattern) {
        case (.title, .text(let text)): "the title \(text.debugDescription)"
        case (.title, .regex(let regex)): "a title matching /\(regex)/"
        case (.clipboard, .text(let text)): "the clipboard \(text.debugDescription)"
        case (.clipboard, .regex(let regex)): "a clipboard write matching /\(regex)/"
        }
    }

    /// The value on `screen`; nil when the program reported none that can match.
    func reported(on screen: ScreenSnapshot) -> String? {
        switch self {
        case .title: screen.title
        case .clipboard: screen.clipboard
        }
    }

    /// What `screen` reports, for a failure: `the title is "x"`, `its last writes: "a", "b"`.
    func seen(on screen: ScreenSnapshot) -> String {
        switch self {
        case .title:
            return screen.title.isEmpty ? "the program set no title" : "the title is \(screen.title.debugDescription)"
        case .clipboard:
            let writes = screen.clipboardWrites.suffix(3).map(\.text.debugDescription)
            return writes.isEmpty ? "the program wrote nothing to the clipboard (OSC 52)"
                : "its last writes: " + writes.joined(separator: ", ")
        }
    }
}
