import Foundation
import TerminalEmulator

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
        let screen = try await waitFor(
            "a shell command to finish (OSC 133 D mark)", timeout: timeout,
            fileID: fileID, filePath: filePath, line: line, column: column,
            where: { Self.firstFinishedCommand(on: $0, from: horizon) != nil })
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

    /// The command a running `waitForCommand` waits for, as a sentence for failure messages:
    /// `"sleep 9" is running`, `no command is running`, `the program sent no OSC 133 marks`.
    package var commandWaitState: String {
        let commands = screen.shellCommands
        guard let last = commands.last else { return "the program sent no OSC 133 shell marks" }
        if last.phase == .running { return "\(last.commandText.map(\.debugDescription) ?? "a command") is running" }
        return "no command is running (the shell is at its \(last.phase == .finished ? "last command's end" : "prompt"))"
    }

    // MARK: - Title

    /// Waits until the title (OSC 0 or 2) is exactly `title`; returns the screen.
    @discardableResult
    public func waitFor(
        title: String, timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> ScreenSnapshot {
        try await waitFor("the title \(title.debugDescription)", timeout: timeout,
                          fileID: fileID, filePath: filePath, line: line, column: column, where: { $0.title == title })
    }

    /// Waits until `pattern` (an `NSRegularExpression`) matches the title; returns the screen.
    @discardableResult
    public func waitFor(
        titleRegex pattern: String, timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> ScreenSnapshot {
        let regex = try CompiledRegex(lines: pattern).within(timeout ?? core.defaultTimeout)
        return try await waitFor("a title matching /\(pattern)/", timeout: timeout,
                                 fileID: fileID, filePath: filePath, line: line, column: column, where: { regex.matches($0.title) })
    }

    // MARK: - Clipboard

    /// Waits until the program's last clipboard write (OSC 52) is exactly `text`; returns the
    /// screen. The harness never touches a real clipboard and never answers a read.
    @discardableResult
    public func waitFor(
        clipboard text: String, timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> ScreenSnapshot {
        try await waitFor("the clipboard \(text.debugDescription)", timeout: timeout,
                          fileID: fileID, filePath: filePath, line: line, column: column, where: { $0.clipboard == text })
    }

    /// Waits until `pattern` matches the program's last clipboard write; returns the screen.
    @discardableResult
    public func waitFor(
        clipboardRegex pattern: String, timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> ScreenSnapshot {
        let regex = try CompiledRegex(lines: pattern).within(timeout ?? core.defaultTimeout)
        return try await waitFor("a clipboard write matching /\(pattern)/", timeout: timeout,
                                 fileID: fileID, filePath: filePath, line: line, column: column,
                                 where: { $0.clipboard.map(regex.matches) ?? false })
    }
}
