import Foundation
import HarnessWire
import TerminalEmulator

/// One step of a flow through an app: an action, then what must be true after it.
///
/// Each step remembers the line it was written on; when its expectation is not met, the
/// failure is reported there, with the expectation next to the screen as it was.
///
/// ```swift
/// try await app.run(
///     AppStep(.press(.enter), expect: .text("Loading…"), .snapshot("loading")),
///     AppStep(.call("given", json: #""error""#), expect: .text("Oops")),
///     AppStep(.press(.character("q")), expect: .exit(.exited(0)))
/// )
/// ```
public struct AppStep: Sendable {
    /// What the step does; nil for a step that only checks.
    public var action: AppAction?
    /// What must then be true, checked in order.
    public var expectations: [AppExpectation]
    /// Where the step was written.
    public var location: SourceCodeLocation

    /// A step that does `action`, then checks `expectations` in order.
    public init(
        _ action: AppAction?,
        expect expectations: AppExpectation...,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        self.action = action
        self.expectations = expectations
        self.location = SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// A step that only checks `expectations`.
    public static func expect(
        _ expectations: AppExpectation...,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> AppStep {
        var step = AppStep(nil, fileID: fileID, filePath: filePath, line: line, column: column)
        step.expectations = expectations
        return step
    }
}

/// Something a step does to the app.
public enum AppAction: Sendable, CustomStringConvertible {
    /// Types text.
    case type(String)
    /// Presses keys in order.
    case press([Key])
    /// Pastes text (bracketed when the app asked for it).
    case paste(String)
    /// Resizes the terminal.
    case resize(cols: Int, rows: Int)
    /// Clicks the target with the left button (fails when the app did not enable the mouse).
    case click(MouseTarget)
    /// Double-clicks the target with the left button.
    case doubleClick(MouseTarget)
    /// Drags with the left button from one target to another.
    case drag(from: MouseTarget, to: MouseTarget)
    /// Turns the wheel over the target.
    case scroll(ScrollDirection, count: Int, at: MouseTarget)
    /// Calls a bridge handler with JSON parameters (`"null"` for none).
    case call(String, json: String)
    /// Anything else (a stub change, a file write), described for failure messages.
    case perform(String, @Sendable (TerminalApp) async throws -> Void)

    /// Presses one key.
    public static func press(_ key: Key) -> AppAction { .press([key]) }

    public var description: String {
        switch self {
        case .type(let text): "type \(text.debugDescription)"
        case .press(let keys): "press \(keys.map { "\($0)" }.joined(separator: " "))"
        case .paste(let text): "paste \(text.debugDescription)"
        case .resize(let cols, let rows): "resize to \(cols)x\(rows)"
        case .click(let target): "click \(target)"
        case .doubleClick(let target): "double-click \(target)"
        case .drag(let from, let to): "drag from \(from) to \(to)"
        case .scroll(let direction, let count, let target): "scroll \(direction) \(count) at \(target)"
        case .call(let name, let json): "call \(name)(\(json))"
        case .perform(let description, _): description
        }
    }
}

/// Something that must be true after a step; each waits, event driven, up to the session's timeout.
public enum AppExpectation: Sendable, CustomStringConvertible {
    /// The screen shows this text.
    case text(String)
    /// The screen does not show this text (checked once, after the step's earlier expectations).
    case noText(String)
    /// A line of the screen matches this regular expression.
    case regex(String)
    /// The screen satisfies a predicate, described for failure messages.
    case screen(String, @Sendable (ScreenSnapshot) -> Bool)
    /// Once the screen is quiet, it matches the snapshot `name` (masks and style as in the `.screen(masks:style:)` strategy).
    case snapshot(String, masks: [SnapshotMask] = [], style: Bool = false)
    /// The app's spy has recorded exactly this many calls (waits for the last of them).
    case spyCount(String, Int)
    /// The next events called `name` have these JSON values (e.g. `"\"loading\""`), in order.
    case events(String, [String])
    /// The program has ended this way.
    case exit(ExitStatus)
    /// Any other condition (a stub journal, a file): returns nil when met, else what is wrong.
    case check(String, @Sendable (TerminalApp) async throws -> String?)

    /// A snapshot with default masks and no style layer.
    public static func snapshot(_ name: String) -> AppExpectation { .snapshot(name, masks: [], style: false) }

    public var description: String {
        switch self {
        case .text(let text): "text \(text.debugDescription) on screen"
        case .noText(let text): "no text \(text.debugDescription) on screen"
        case .regex(let pattern): "a line matching /\(pattern)/"
        case .screen(let description, _): description
        case .snapshot(let name, _, _): "the screen to match snapshot \"\(name)\""
        case .spyCount(let name, let count): "spy \(name) to have \(count) call\(count == 1 ? "" : "s")"
        case .events(let name, let values): "events \(name): \(values.joined(separator: ", "))"
        case .exit(let status): "the app to have \(status)"
        case .check(let description, _): description
        }
    }
}

/// Thrown by ``TerminalApp/run(_:)-(AppStep...)`` after a step failed; the failure itself was
/// reported at the step's own line.
public struct AppStepsFailed: Error, CustomStringConvertible {
    /// The failed step's 1-based position.
    public var step: Int
    /// Where the step was written.
    public var location: SourceCodeLocation
    /// The failure message.
    public var message: String

    package init(step: Int, location: SourceCodeLocation, message: String) {
        (self.step, self.location, self.message) = (step, location, message)
    }

    public var description: String { "step \(step) at \(location) failed (reported there): \(message)" }
}
