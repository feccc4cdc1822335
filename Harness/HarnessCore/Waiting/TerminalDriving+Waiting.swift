import Foundation
import TerminalEmulator
import HarnessSystem

extension TerminalDriving {
    /// Waits until the screen shows `text`, or a line that scrolled off the top since the last
    /// input or the last matching screen wait showed it, and returns that screen.
    ///
    /// Fast output is never missed: `seq 1 2000` then a wait for "1500" succeeds although
    /// "1500" scrolled off before the wait looked. Woken by every chunk the program writes;
    /// no polling. Throws `TerminalSessionError.timeout` (with the framed screen, the output
    /// after the output cursor and the last bytes received) after `timeout` (nil: the session's
    /// default), or `.exitedWhileWaiting` at once when the program ends and its final screen
    /// does not show the text.
    @discardableResult
    public func waitFor(
        text: String,
        timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> ScreenSnapshot {
        let scan = ScrolledLineScan(horizon: core.currentScreenHorizon)
        let description = "text \(text.debugDescription)"
        let screen = try await withScrollbackNearMiss(filePath, { scrollbackNearMiss(text: text) }) {
            try await waitFor(
                description, timeout: timeout,
                fileID: fileID, filePath: filePath, line: line, column: column,
                where: { $0.showsText(text) || scan.scrolledLinesContain(text, in: $0) })
        }
        let found = screen.firstLineNumber(since: scan.horizon) { text.contains("\n") ? nil : $0.contains(text) }
            ?? screen.firstLineNumber(since: scan.horizon, matching: { $0.range(of: text) })
        if let found { core.advanceScreenHorizon(to: found) }
        return screen
    }

    /// Waits until `pattern` (an `NSRegularExpression` pattern) matches the screen's text
    /// (rows joined by newlines, trailing blanks trimmed), preceded by the lines that scrolled
    /// off since the last input or the last matching screen wait, and returns that screen.
    /// An invalid pattern throws `TerminalSessionError.invalidRegex` at once.
    @discardableResult
    public func waitFor(
        regex pattern: String,
        timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> ScreenSnapshot {
        let expression = try CompiledRegex(lines: pattern).within(timeout ?? core.defaultTimeout)
        let horizon = core.currentScreenHorizon
        let description = "regex /\(pattern)/"
        let screen = try await withScrollbackNearMiss(filePath, { scrollbackNearMiss(regex: pattern) }) {
            try await waitFor(
                description, timeout: timeout,
                fileID: fileID, filePath: filePath, line: line, column: column,
                where: { screen in
                    let scrolled = screen.linesScrolledOff(since: horizon)
                    return expression.matches(scrolled.isEmpty ? screen.text : (scrolled + screen.lines).joined(separator: "\n"))
                })
        }
        if let found = screen.firstLineNumber(since: horizon, trimmed: true, matching: { expression.firstRange(in: $0) }) {
            core.advanceScreenHorizon(to: found)
        }
        return screen
    }

    /// Runs a screen wait; when it times out and the scrollback holds what it waited for
    /// (printed before the last match or input, so the wait did not search it), the error says
    /// where, as a flow's `expect` does. A failure is reported at the wait's line when nothing
    /// around it reports it (``CallSiteFailures``).
    private func withScrollbackNearMiss(
        _ filePath: StaticString, _ nearMiss: () -> String?, _ wait: () async throws -> ScreenSnapshot
    ) async throws -> ScreenSnapshot {
        try await CallSiteFailures.reporting("\(filePath)") {
            do {
                return try await wait()
            } catch let error as TerminalSessionError {
                guard error.waitFailure != nil, let note = nearMiss() else { throw error }
                throw error.updatingFailure { $0.nearMiss = note }
            }
        }
    }

    // MARK: - The output stream

    /// Waits until the program prints `text` after the output cursor, moves the cursor past it
    /// and returns the match, as pexpect's `expect` does.
    ///
    /// The output is what the program printed, as a stream: characters in print order, line
    /// breaks as "\n", escape sequences and carriage returns removed, across scrolling (see
    /// `TerminalEmulator.PrintedText`). Unlike a screen wait, an old match never satisfies a
    /// new wait: after `waitForOutput(text: ">>> ")` and input, the next
    /// `waitForOutput(text: ">>> ")` waits for a new prompt.
    ///
    /// ```swift
    /// try await session.waitForOutput(text: ">>> ")
    /// try session.type("1/0\r")
    /// let reply = try await session.waitForOutput(text: ">>> ")
    /// #expect(reply.before.contains("ZeroDivisionError"))
    /// ```
    /// Throws `TerminalSessionError.timeout` (showing the output after the cursor) after
    /// `timeout`, or `.exitedWhileWaiting` when the program ends without printing it.
    @discardableResult
    public func waitForOutput(
        text: String,
        timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> OutputMatch {
        try await waitForOutput(
            .text(text), timeout: timeout,
            location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Waits until `pattern` (an `NSRegularExpression` pattern, `^`/`$` at line breaks)
    /// matches the output after the cursor, moves the cursor past the match and returns it.
    /// See ``waitForOutput(text:timeout:fileID:filePath:line:column:)``.
    @discardableResult
    public func waitForOutput(
        regex pattern: String,
        timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> OutputMatch {
        return try await waitForOutput(
            .regex(try CompiledRegex(lines: pattern).within(timeout ?? core.defaultTimeout), pattern: pattern), timeout: timeout,
            location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    private func waitForOutput(_ pattern: OutputPattern, timeout: Duration?, location: SourceCodeLocation) async throws -> OutputMatch {
        let outcome = try await core.reportedWait(
            description: pattern.description, condition: .output(pattern), timeout: timeout ?? core.defaultTimeout,
            location: location)
        guard case .output(let match) = outcome else { preconditionFailure("an output wait resolved with something else") }
        return match
    }

    /// What the program printed after the output cursor, as a stream (see
    /// ``waitForOutput(text:timeout:fileID:filePath:line:column:)``); the cursor does not move.
    public var outputAfterCursor: String { core.outputAfterCursor }

    /// Everything the program printed that is still kept (the last MiB), as a stream.
    public var output: String { core.printedText.text(from: 0) }

    /// Moves the output cursor past everything printed so far and returns what it skipped, like
    /// reading what is pending: the next output wait only sees what comes after.
    @discardableResult
    public func consumeOutput() -> String { core.consumeOutput() }

    /// Waits until `predicate` holds for the screen and returns that screen. `description`
    /// names the condition in error messages. The predicate runs on the harness's event loop
    /// (or on the caller, for the screen as it is when the wait begins), outside the session's
    /// lock; keep it quick.
    @discardableResult
    public func waitFor(
        _ description: String,
        timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        where predicate: @escaping @Sendable (ScreenSnapshot) -> Bool
    ) async throws -> ScreenSnapshot {
        let outcome = try await core.reportedWait(
            description: description, condition: .screen(predicate), timeout: timeout ?? core.defaultTimeout,
            location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
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
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> ScreenSnapshot {
        // Half the clock's range at most, so that a reading plus `quiet` never overflows.
        let quiet = min(quietFor.clampedNanoseconds, UInt64.max / 2)
        let outcome = try await core.reportedWait(
            description: "the screen to be stable for \(TerminalSessionError.format(quietFor))",
            condition: .stable(quietNanoseconds: quiet, registeredUptime: MonotonicClock.nanoseconds()),
            timeout: timeout ?? core.defaultTimeout,
            location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        guard case .screen(let screen) = outcome else { preconditionFailure("a stability wait resolved with an exit") }
        return screen
    }

    /// Waits until the program has ended and its output was read; returns how it ended.
    @discardableResult
    public func waitForExit(
        timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> ExitStatus {
        let outcome = try await core.reportedWait(
            description: "the program to exit", condition: .exit, timeout: timeout ?? core.defaultTimeout,
            location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        guard case .exit(let status) = outcome else { preconditionFailure("an exit wait resolved with a screen") }
        return status
    }
}

/// Remembers which scrolled-off lines a text wait already searched, so each new screen only
/// costs the lines that scrolled off since the previous one. The wait's predicate runs on the
/// event loop and, for the first screen, on the waiting task: the mark is read and moved under
/// its lock (a `Locked`, which ThreadSanitizer sees; the `Mutex` it replaced was reported as
/// racing between those two).
final class ScrolledLineScan: Sendable {
    private let searchedUpTo: Locked<Int>
    /// The horizon the wait started from.
    let horizon: Int

    init(horizon: Int) {
        self.horizon = horizon
        searchedUpTo = Locked(horizon)
    }

    /// Whether a line that scrolled off after the horizon (and after the last call) holds `text`.
    func scrolledLinesContain(_ text: String, in screen: ScreenSnapshot) -> Bool {
        searchedUpTo.withLock { searchedUpTo in
            let lines = screen.linesScrolledOff(since: searchedUpTo)
            if text.contains("\n") {
                // Text across lines: search the lines since the horizon with the screen below them.
                return (lines + screen.lines).joined(separator: "\n").contains(text)
            }
            if lines.contains(where: { ByteSearch.asciiContains($0, text) ?? $0.contains(text) }) { return true }
            searchedUpTo = max(searchedUpTo, screen.scrolledOffCount)
            return false
        }
    }
}

/// A compiled regular expression that can be shared with the event loop (it is immutable),
/// and, for a wait, the moment its matching gives up.
///
/// `NSRegularExpression` backtracks: a pattern such as `(a*)*b` against a long line of `a`
/// takes time exponential in the line's length. A regex given a ``deadline`` is matched on
/// the cancellable path (`enumerateMatches` with `.reportProgress`, whose block ICU calls
/// while it works), and a match still running at the deadline stops and counts as no match:
/// the wait then ends at its timeout with its ordinary timeout error, however the pattern
/// backtracks.
package struct CompiledRegex: Sendable {
    package let expression: NSRegularExpression
    /// `MonotonicClock.nanoseconds()` after which matching stops as if nothing matched; nil
    /// matches to the end, however long it takes.
    package var deadline: UInt64?

    package init(_ expression: NSRegularExpression) { self.expression = expression }

    /// `pattern` compiled with `^` and `$` matching at line breaks.
    /// - Throws: `TerminalSessionError.invalidRegex` when it does not compile.
    package init(lines pattern: String) throws {
        do {
            expression = try NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
        } catch {
            throw TerminalSessionError.invalidRegex(pattern: pattern, reason: "\(error)")
        }
    }

    /// The same expression, matching until `timeout` from now (nil: without limit).
    package func within(_ timeout: Duration?) -> CompiledRegex {
        var bounded = self
        bounded.deadline = timeout.map { timeout in
            let (sum, overflow) = MonotonicClock.nanoseconds().addingReportingOverflow(timeout.clampedNanoseconds)
            return overflow ? .max : sum
        }
        return bounded
    }

    package func matches(_ text: String) -> Bool { firstMatch(in: text) != nil }

    /// Whether `text` holds a match: nil when the deadline passed before matching could tell.
    /// A check that the pattern is absent counts nil as present, so a pattern that backtracks
    /// past the deadline fails the check (or keeps its wait going to its timeout), never passes it.
    package func decides(_ text: String) -> Bool? {
        let range = NSRange(text.startIndex..., in: text)
        guard let deadline else { return expression.firstMatch(in: text, range: range) != nil }
        var found = false
        var outOfTime = false
        expression.enumerateMatches(in: text, options: [.reportProgress], range: range) { result, _, stop in
            if result != nil {
                found = true
                stop.pointee = true
            } else if MonotonicClock.nanoseconds() >= deadline {
                outOfTime = true
                stop.pointee = true
            }
        }
        return found ? true : outOfTime ? nil : false
    }

    package func firstRange(in text: String) -> Range<String.Index>? {
        firstMatch(in: text).flatMap { Range($0.range, in: text) }
    }

    /// The first match in `text`, or nil (also when the deadline passed while matching).
    package func firstMatch(in text: String) -> NSTextCheckingResult? {
        let range = NSRange(text.startIndex..., in: text)
        guard let deadline else { return expression.firstMatch(in: text, range: range) }
        var found: NSTextCheckingResult?
        expression.enumerateMatches(in: text, options: [.reportProgress], range: range) { result, _, stop in
            if let result {
                found = result
                stop.pointee = true
            } else if MonotonicClock.nanoseconds() >= deadline {
                stop.pointee = true
            }
        }
        return found
    }

    /// Every match in `text`, in order (those found before the deadline, when it passed).
    package func allMatches(in text: String) -> [NSTextCheckingResult] {
        let range = NSRange(text.startIndex..., in: text)
        guard let deadline else { return expression.matches(in: text, range: range) }
        var found: [NSTextCheckingResult] = []
        expression.enumerateMatches(in: text, options: [.reportProgress], range: range) { result, _, stop in
            if let result { found.append(result) }
            if MonotonicClock.nanoseconds() >= deadline { stop.pointee = true }
        }
        return found
    }
}
