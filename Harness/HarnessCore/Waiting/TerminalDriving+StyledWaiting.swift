import HarnessSystem
import TerminalEmulator

extension TerminalDriving {
    // MARK: - Styles and areas

    /// Waits until a row of the screen shows `text` with `style` in every cell (inside `area`
    /// when given) and returns that screen.
    ///
    /// ```swift
    /// try await session.waitFor(text: "Oops", style: TextStyle(bold: true, foreground: .named(.red)))
    /// try await session.waitFor(text: "3 left", in: .rows(between: "Todos", and: "q quit"), style: .plain)
    /// ```
    /// Woken by every chunk, like ``waitFor(text:timeout:fileID:filePath:line:column:)``; only
    /// the screen's rows are searched (not the lines that scrolled off). When it times out,
    /// the error says what the screen showed instead: the text with another style (and its
    /// first differing cell), the text outside the area, or no such area.
    /// - Throws: `TerminalSessionError.invalidConfiguration` for text with a line break (a style
    ///   is checked on one row); `.timeout` or `.exitedWhileWaiting` as the other waits do.
    @discardableResult
    public func waitFor(
        text: String, in area: ScreenArea? = nil, style: TextStyle,
        timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> ScreenSnapshot {
        try await waitFor(
            StyledTextQuery(try .oneRowText(text), area: area, style: style), timeout: timeout,
            location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Waits until `text` shows inside `area` (one row of it) and returns that screen; a clock
    /// elsewhere on the screen does not matter. See ``waitFor(text:in:style:timeout:fileID:filePath:line:column:)``.
    @discardableResult
    public func waitFor(
        text: String, in area: ScreenArea,
        timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> ScreenSnapshot {
        try await waitFor(
            StyledTextQuery(try .oneRowText(text), area: area, style: nil), timeout: timeout,
            location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Waits until a match of `pattern` (an `NSRegularExpression` pattern, matched row by row)
    /// has `style` in every cell, inside `area` when given.
    /// - Throws: `TerminalSessionError.invalidRegex` at once when the pattern does not compile.
    @discardableResult
    public func waitFor(
        regex pattern: String, in area: ScreenArea? = nil, style: TextStyle,
        timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> ScreenSnapshot {
        try await waitFor(
            StyledTextQuery(try .regex(compiling: pattern), area: area, style: style),
            timeout: timeout, location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Waits until `pattern` matches a row inside `area`.
    /// - Throws: `TerminalSessionError.invalidRegex` at once when the pattern does not compile.
    @discardableResult
    public func waitFor(
        regex pattern: String, in area: ScreenArea,
        timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> ScreenSnapshot {
        try await waitFor(
            StyledTextQuery(try .regex(compiling: pattern), area: area, style: nil),
            timeout: timeout, location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Waits for the query; a timeout or exit error says what the last screen looked at showed
    /// instead. A match moves the screen horizon to its row, as the other screen waits do.
    @discardableResult
    package func waitFor(_ query: StyledTextQuery, timeout: Duration?, location: SourceCodeLocation) async throws -> ScreenSnapshot {
        // Matching while waiting gives up at the wait's deadline (a regex that backtracks).
        var bounded = query
        bounded.target = query.target.within(timeout ?? core.defaultTimeout)
        let lastMiss = Locked<String?>(nil)
        let screen = try await CallSiteFailures.reporting("\(location.filePath)") {
            do {
                return try await waitFor(
                    query.description, timeout: timeout,
                    fileID: location.fileID, filePath: location.filePath, line: location.line, column: location.column,
                    where: { [bounded] screen in
                        let verdict = bounded.verdict(on: screen)
                        if case .matched = verdict { return true }
                        let explanation = bounded.explanation(of: verdict, on: screen)
                        lastMiss.withLock { $0 = explanation }
                        return false
                    })
            } catch let error as TerminalSessionError {
                guard let miss = lastMiss.withLock({ $0 }) else { throw error }
                throw error.updatingFailure { $0.nearMiss = "instead " + miss }
            }
        }
        if case .matched(let match) = query.verdict(on: screen) {
            core.advanceScreenHorizon(to: screen.scrolledOffCount + match.position.row)
        }
        return screen
    }
}
