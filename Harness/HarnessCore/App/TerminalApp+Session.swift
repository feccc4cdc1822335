import TerminalEmulator

/// What a test does with the app most, without going through `session`: typing, keys, the
/// screen, waits on the screen and on the output. Each forwards to ``TerminalApp/session``.
///
/// ```swift
/// try await TerminalApp.with(launch) { app in
///     try app.press(.enter)
///     try await app.waitFor(text: "Todos (7)")
///     assertSnapshot(of: app.screen, as: .screen(), named: "loaded")
/// }
/// ```
extension TerminalApp {
    // MARK: - Input

    /// Writes bytes to the app's terminal (``TerminalSession/send(_:)``).
    public func send(_ bytes: [UInt8]) throws { try session.send(bytes) }

    /// Types text (``TerminalSession/type(_:)``).
    public func type(_ text: String) throws { try session.type(text) }

    /// Presses keys in order (``TerminalSession/press(_:)-(Key...)``).
    public func press(_ keys: Key...) throws { try session.press(keys) }

    /// Presses keys in order.
    public func press(_ keys: [Key]) throws { try session.press(keys) }

    /// Pastes text, bracketed when the app enabled bracketed paste (``TerminalSession/paste(_:)``).
    public func paste(_ text: String) throws { try session.paste(text) }

    /// Resizes the terminal; the app gets SIGWINCH.
    public func resize(cols: Int, rows: Int) throws { try session.resize(cols: cols, rows: rows) }

    // MARK: - Mouse (cells 0-based; see TerminalSession+Mouse)

    /// Clicks the target (``TerminalSession/click(_:button:modifiers:)``); throws when the app
    /// did not enable mouse reporting.
    public func click(_ target: MouseTarget, button: MouseButton = .left, modifiers: MouseModifiers = []) throws {
        try session.click(target, button: button, modifiers: modifiers)
    }

    /// Clicks the first cell of the first occurrence of `text` (``TerminalSession/click(text:button:modifiers:)``).
    public func click(text: String, button: MouseButton = .left, modifiers: MouseModifiers = []) throws {
        try session.click(text: text, button: button, modifiers: modifiers)
    }

    /// Clicks a 0-based cell (``TerminalSession/click(row:col:button:modifiers:)``).
    public func click(row: Int, col: Int, button: MouseButton = .left, modifiers: MouseModifiers = []) throws {
        try session.click(row: row, col: col, button: button, modifiers: modifiers)
    }

    /// Double-clicks the target (``TerminalSession/doubleClick(_:button:modifiers:)``).
    public func doubleClick(_ target: MouseTarget, button: MouseButton = .left, modifiers: MouseModifiers = []) throws {
        try session.doubleClick(target, button: button, modifiers: modifiers)
    }

    /// Double-clicks the first cell of the first occurrence of `text`.
    public func doubleClick(text: String, button: MouseButton = .left, modifiers: MouseModifiers = []) throws {
        try session.doubleClick(text: text, button: button, modifiers: modifiers)
    }

    /// Drags from one target to another (``TerminalSession/drag(from:to:button:modifiers:)``).
    public func drag(from: MouseTarget, to: MouseTarget, button: MouseButton = .left, modifiers: MouseModifiers = []) throws {
        try session.drag(from: from, to: to, button: button, modifiers: modifiers)
    }

    /// Turns the wheel over the target (``TerminalSession/scroll(_:count:at:modifiers:)``).
    public func scroll(_ direction: ScrollDirection, count: Int = 1, at target: MouseTarget, modifiers: MouseModifiers = []) throws {
        try session.scroll(direction, count: count, at: target, modifiers: modifiers)
    }

    // MARK: - The screen and the output

    /// The screen now.
    public var screen: ScreenSnapshot { session.screen }

    /// How the app ended, once it has.
    public var exitStatus: ExitStatus? { session.exitStatus }

    /// What the app printed after the output cursor (``TerminalSession/outputAfterCursor``).
    public var outputAfterCursor: String { session.outputAfterCursor }

    /// Moves the output cursor past everything printed so far (``TerminalSession/consumeOutput()``).
    @discardableResult
    public func consumeOutput() -> String { session.consumeOutput() }

    // MARK: - Waits

    /// ``TerminalSession/waitFor(text:timeout:fileID:filePath:line:column:)``.
    @discardableResult
    public func waitFor(
        text: String, timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> ScreenSnapshot {
        try await session.waitFor(text: text, timeout: timeout, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// ``TerminalSession/waitFor(regex:timeout:fileID:filePath:line:column:)``.
    @discardableResult
    public func waitFor(
        regex pattern: String, timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> ScreenSnapshot {
        try await session.waitFor(regex: pattern, timeout: timeout, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// ``TerminalSession/waitFor(text:in:style:timeout:fileID:filePath:line:column:)``: the text
    /// with a style in every cell, inside an area when given.
    @discardableResult
    public func waitFor(
        text: String, in area: ScreenArea? = nil, style: TextStyle, timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> ScreenSnapshot {
        try await session.waitFor(
            text: text, in: area, style: style, timeout: timeout, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// ``TerminalSession/waitFor(text:in:timeout:fileID:filePath:line:column:)``: the text inside an area.
    @discardableResult
    public func waitFor(
        text: String, in area: ScreenArea, timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> ScreenSnapshot {
        try await session.waitFor(text: text, in: area, timeout: timeout, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// ``TerminalSession/waitFor(regex:in:style:timeout:fileID:filePath:line:column:)``.
    @discardableResult
    public func waitFor(
        regex pattern: String, in area: ScreenArea? = nil, style: TextStyle, timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> ScreenSnapshot {
        try await session.waitFor(
            regex: pattern, in: area, style: style, timeout: timeout, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// ``TerminalSession/waitFor(regex:in:timeout:fileID:filePath:line:column:)``.
    @discardableResult
    public func waitFor(
        regex pattern: String, in area: ScreenArea, timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> ScreenSnapshot {
        try await session.waitFor(
            regex: pattern, in: area, timeout: timeout, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// ``TerminalSession/waitFor(_:timeout:fileID:filePath:line:column:where:)``.
    @discardableResult
    public func waitFor(
        _ description: String, timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        where predicate: @escaping @Sendable (ScreenSnapshot) -> Bool
    ) async throws -> ScreenSnapshot {
        try await session.waitFor(
            description, timeout: timeout, fileID: fileID, filePath: filePath, line: line, column: column, where: predicate)
    }

    /// ``TerminalSession/waitUntilStable(quietFor:timeout:fileID:filePath:line:column:)``.
    @discardableResult
    public func waitUntilStable(
        quietFor: Duration = .milliseconds(200), timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> ScreenSnapshot {
        try await session.waitUntilStable(
            quietFor: quietFor, timeout: timeout, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// ``TerminalSession/waitForExit(timeout:fileID:filePath:line:column:)``.
    @discardableResult
    public func waitForExit(
        timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> ExitStatus {
        try await session.waitForExit(timeout: timeout, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// ``TerminalSession/waitForOutput(text:timeout:fileID:filePath:line:column:)``.
    @discardableResult
    public func waitForOutput(
        text: String, timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> OutputMatch {
        try await session.waitForOutput(text: text, timeout: timeout, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// ``TerminalSession/waitForOutput(regex:timeout:fileID:filePath:line:column:)``.
    @discardableResult
    public func waitForOutput(
        regex pattern: String, timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> OutputMatch {
        try await session.waitForOutput(
            regex: pattern, timeout: timeout, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}
