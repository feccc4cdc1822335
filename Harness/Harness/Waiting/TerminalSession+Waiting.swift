import Foundation
import TerminalEmulator

extension TerminalSession {
    /// Waits until the screen shows `text` and returns that screen.
    ///
    /// Woken by every chunk the program writes; no polling. Throws
    /// `TerminalSessionError.timeout` (with the framed screen and the last bytes received)
    /// after `timeout` (nil: the session's default), or `.exitedWhileWaiting` at once when the
    /// program ends and its final screen does not show the text.
    @discardableResult
    public func waitFor(
        text: String,
        timeout: Duration? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async throws -> ScreenSnapshot {
        try await waitFor(
            "text \(text.debugDescription)", timeout: timeout,
            fileID: fileID, filePath: filePath, line: line, column: column,
            where: { $0.showsText(text) })
    }

    /// Waits until `pattern` (an `NSRegularExpression` pattern) matches the screen's text
    /// (rows joined by newlines, trailing blanks trimmed) and returns that screen.
    /// An invalid pattern throws `TerminalSessionError.invalidRegex` at once.
    @discardableResult
    public func waitFor(
        regex pattern: String,
        timeout: Duration? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async throws -> ScreenSnapshot {
        let expression: CompiledRegex
        do {
            expression = CompiledRegex(try NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines]))
        } catch {
            throw TerminalSessionError.invalidRegex(pattern: pattern, reason: "\(error)")
        }
        return try await waitFor(
            "regex /\(pattern)/", timeout: timeout,
            fileID: fileID, filePath: filePath, line: line, column: column,
            where: { expression.matches($0.text) })
    }

    /// Waits until `predicate` holds for the screen and returns that screen. `description`
    /// names the condition in error messages. The predicate runs on the reader thread, outside
    /// the session's lock; keep it quick.
    @discardableResult
    public func waitFor(
        _ description: String,
        timeout: Duration? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
        where predicate: @escaping @Sendable (ScreenSnapshot) -> Bool
    ) async throws -> ScreenSnapshot {
        let outcome = try await core.wait(
            description: description, condition: .screen(predicate), timeout: timeout ?? core.defaultTimeout)
        guard case .screen(let screen) = outcome else { preconditionFailure("a screen wait resolved with an exit") }
        return screen
    }

    /// Waits until the program wrote nothing for `quietFor` (counted from this call) and
    /// returns the screen then. A timer is armed now and re-armed by each output chunk. When
    /// the program has ended, the screen cannot change any more and the wait succeeds at once.
    @discardableResult
    public func waitUntilStable(
        quietFor: Duration = .milliseconds(200),
        timeout: Duration? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async throws -> ScreenSnapshot {
        let quiet = SessionCore.nanoseconds(quietFor)
        let outcome = try await core.wait(
            description: "the screen to be stable for \(TerminalSessionError.format(quietFor))",
            condition: .stable(quietNanoseconds: quiet, registeredUptime: DispatchTime.now().uptimeNanoseconds),
            timeout: timeout ?? core.defaultTimeout)
        guard case .screen(let screen) = outcome else { preconditionFailure("a stability wait resolved with an exit") }
        return screen
    }

    /// Waits until the program has ended and its output was read; returns how it ended.
    @discardableResult
    public func waitForExit(
        timeout: Duration? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async throws -> ExitStatus {
        let outcome = try await core.wait(
            description: "the program to exit", condition: .exit, timeout: timeout ?? core.defaultTimeout)
        guard case .exit(let status) = outcome else { preconditionFailure("an exit wait resolved with a screen") }
        return status
    }
}

extension SessionCore {
    /// Registers a wait and suspends until it resolves; cancelling the task resumes it with
    /// `CancellationError`.
    func wait(description: String, condition: WaitCondition, timeout: Duration) async throws -> WaitOutcome {
        let id = makeWaiterID()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                register(id: id, description: description, condition: condition, timeout: timeout, continuation: continuation)
            }
        } onCancel: {
            cancelWaiter(id)
        }
    }
}

/// A compiled regular expression that can be shared with the reader thread (it is immutable).
struct CompiledRegex: @unchecked Sendable {
    let expression: NSRegularExpression

    init(_ expression: NSRegularExpression) { self.expression = expression }

    func matches(_ text: String) -> Bool {
        expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}
