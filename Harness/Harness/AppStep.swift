import Foundation
import HarnessCore
import HarnessSteps
import TerminalEmulator

/// One step of a flow through an app: an action, then what must be true after it.
///
/// A Swift step is spelled in Swift but is the same value a flow line is: each action and each
/// expectation becomes one ``EngineStep`` (mostly a ``FlowCommand``), run by the one
/// ``StepEngine`` with the flow runner's semantics and failure messages. Each step remembers the
/// line it was written on; when one of its expectations is not met, the failure is reported
/// there, with what was expected next to the screen as it was.
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
    package var action: AppAction?
    /// What must then be true, checked in order.
    package var expectations: [AppExpectation]
    /// Where the step was written.
    package var location: SourceCodeLocation

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

    /// The engine's steps: the action, then each expectation, all at this step's line.
    package var engineSteps: [EngineStep] {
        let position = SourcePosition(file: "\(location.filePath)", line: Int(location.line), column: Int(location.column))
        var steps: [EngineStep] = []
        if let action { steps.append(EngineStep(action.body, text: action.description, position: position)) }
        for expectation in expectations {
            steps.append(EngineStep(expectation.body, text: expectation.description, position: position))
        }
        return steps
    }
}

/// Something a step does to the app: the flow language's actions, spelled in Swift.
public struct AppAction: Sendable, CustomStringConvertible {
    /// The engine's step.
    package let body: EngineStep.Body
    /// The action as messages show it (the flow line it stands for).
    public let description: String

    init(_ command: FlowCommand) {
        (body, description) = (.command(command), command.flowText)
    }

    /// Any command of the flow language as an action, the way a flow line writes it: a new
    /// command is usable from Swift at once, before it has a spelling of its own.
    public static func flow(_ command: FlowCommand) -> AppAction { AppAction(command) }
    /// Types text (`type "text"`).
    public static func type(_ text: String) -> AppAction { AppAction(.type(text)) }
    /// Presses keys in order (`press KEY...`).
    public static func press(_ keys: [Key]) -> AppAction { AppAction(.press(keys)) }
    /// Presses one key.
    public static func press(_ key: Key) -> AppAction { .press([key]) }
    /// Pastes text, bracketed when the app asked for it (`paste "text"`).
    public static func paste(_ text: String) -> AppAction { AppAction(.paste(text)) }
    /// Resizes the terminal (`resize COLSxROWS`).
    public static func resize(cols: Int, rows: Int) -> AppAction { AppAction(.resize(TerminalSize(cols: cols, rows: rows))) }
    /// Clicks the target with the left button (fails when the app did not enable the mouse).
    public static func click(_ target: MouseTarget) -> AppAction { AppAction(.click(target)) }
    /// Double-clicks the target with the left button.
    public static func doubleClick(_ target: MouseTarget) -> AppAction { AppAction(.doubleClick(target)) }
    /// Drags with the left button from one target to another.
    public static func drag(from: MouseTarget, to: MouseTarget) -> AppAction { AppAction(.drag(from: from, to: to)) }
    /// Turns the wheel over the target.
    public static func scroll(_ direction: ScrollDirection, count: Int = 1, at target: MouseTarget) -> AppAction {
        AppAction(.scroll(direction, count: count, at: target))
    }
    /// Moves the mouse onto the target with no button held (`hover "text"|ROW,COL`; mode 1003 only).
    public static func hover(_ target: MouseTarget) -> AppAction { AppAction(.hover(target)) }
    /// Tells the app the terminal gained or lost the focus (`focus in|out`; mode 1004 only).
    public static func focus(_ change: FocusChange) -> AppAction { AppAction(.focus(change)) }
    /// Calls a bridge handler with JSON parameters (`"null"` for none): `call NAME JSON`.
    public static func call(_ name: String, json: String) -> AppAction {
        AppAction(.call(name: name, params: .inline(json), expected: nil))
    }
    /// Calls the app's `given` handler with the state's name (`given NAME` after launch).
    public static func given(_ state: String) -> AppAction { AppAction(.given(.name(state))) }
    /// Ends the program's process group now (`kill`).
    public static var kill: AppAction { AppAction(.kill) }
    /// Anything else (a stub change, a file write), described for failure messages.
    public static func perform(_ description: String, _ body: @escaping @Sendable (TerminalApp) async throws -> Void) -> AppAction {
        AppAction(body: .perform(body), description: description)
    }

    private init(body: EngineStep.Body, description: String) {
        (self.body, self.description) = (body, description)
    }
}

/// Something that must be true after a step: the flow language's checks, spelled in Swift.
/// Each waits, event driven, up to the launch's default timeout unless it says `within`.
public struct AppExpectation: Sendable, CustomStringConvertible {
    /// The engine's step.
    package let body: EngineStep.Body
    /// The expectation as messages show it (the flow line it stands for).
    public let description: String

    init(_ command: FlowCommand) {
        (body, description) = (.command(command), command.flowText)
    }

    private init(body: EngineStep.Body, description: String) {
        (self.body, self.description) = (body, description)
    }

    /// Any command of the flow language as a check, the way a flow line writes it:
    /// `.flow(.expectGone(.text("Saving…"), area: nil, within: nil))`. A new command is usable
    /// from Swift at once, before it has a spelling of its own.
    public static func flow(_ command: FlowCommand) -> AppExpectation { AppExpectation(command) }

    // MARK: The screen

    /// The screen shows this text (`expect "text" [in AREA] [style ...] [within D]`).
    public static func text(_ text: String, in area: ScreenArea? = nil, style: TextStyle? = nil, within: Duration? = nil) -> AppExpectation {
        AppExpectation(.expect(.text(text), within: within, area: area, style: style))
    }
    /// A line of the screen matches this regular expression (`expect /regex/ ...`).
    public static func regex(_ pattern: String, in area: ScreenArea? = nil, style: TextStyle? = nil, within: Duration? = nil) -> AppExpectation {
        AppExpectation(.expect(.regex(pattern), within: within, area: area, style: style))
    }
    /// The screen does not show this text now, inside the area and in the style when given
    /// (`expect-not "text" [in AREA] [style ...]`; it does not wait); with `for`, nor during
    /// that time: the step fails as soon as it shows, passes when the time is over
    /// (`expect-not "text" for DURATION`).
    public static func noText(
        _ text: String, in area: ScreenArea? = nil, style: TextStyle? = nil, for duration: Duration? = nil
    ) -> AppExpectation {
        AppExpectation(.expectNot(.text(text), area: area, style: style, during: duration))
    }
    /// No line of the screen matches this regular expression now, nor during `for` when given
    /// (`expect-not /regex/ [in AREA] [style ...] [for DURATION]`).
    public static func noRegex(
        _ pattern: String, in area: ScreenArea? = nil, style: TextStyle? = nil, for duration: Duration? = nil
    ) -> AppExpectation {
        AppExpectation(.expectNot(.regex(pattern), area: area, style: style, during: duration))
    }
    /// Waits until the screen no longer shows this text, inside the area when given: a dialog
    /// closed, a spinner stopped (`expect-gone "text" [in AREA] [within D]`).
    public static func gone(_ text: String, in area: ScreenArea? = nil, within: Duration? = nil) -> AppExpectation {
        AppExpectation(.expectGone(.text(text), area: area, within: within))
    }
    /// Waits until no line of the screen matches this regular expression (`expect-gone /regex/ ...`).
    public static func goneRegex(_ pattern: String, in area: ScreenArea? = nil, within: Duration? = nil) -> AppExpectation {
        AppExpectation(.expectGone(.regex(pattern), area: area, within: within))
    }
    /// The screen, or the part `area` covers, has not changed for `quiet` (`wait-stable D [in AREA]`).
    public static func stable(for quiet: Duration, in area: ScreenArea? = nil) -> AppExpectation {
        AppExpectation(.waitStable(quiet, area: area))
    }
    /// The screen satisfies a predicate, described for failure messages (waits for it).
    public static func screen(_ description: String, _ predicate: @escaping @Sendable (ScreenSnapshot) -> Bool) -> AppExpectation {
        AppExpectation(body: .screen(predicate), description: description)
    }

    // MARK: The output stream

    /// The program prints this text after the output cursor, which moves past it (`expect-output "text"`).
    public static func output(_ text: String, within: Duration? = nil) -> AppExpectation {
        AppExpectation(.expectOutput(.text(text), within: within))
    }
    /// The program prints a match of this regular expression after the output cursor (`expect-output /regex/`).
    public static func outputRegex(_ pattern: String, within: Duration? = nil) -> AppExpectation {
        AppExpectation(.expectOutput(.regex(pattern), within: within))
    }
    /// Nothing printed after the output cursor shows this text (`expect-output-not "text"`).
    public static func noOutput(_ text: String) -> AppExpectation { AppExpectation(.expectOutputNot(.text(text))) }

    // MARK: What the program reports: shell marks, title, clipboard

    /// A shell command finished (its OSC 133 D mark): the first not finished when input was
    /// last sent, or after the one the previous `.commandFinished()` saw (`expect-command [within D]`).
    public static func commandFinished(within: Duration? = nil) -> AppExpectation { AppExpectation(.expectCommand(within: within)) }
    /// The last finished command's exit status is `status` (`command-status N`).
    public static func commandStatus(_ status: Int) -> AppExpectation { AppExpectation(.commandStatus(status)) }
    /// The title (OSC 0/2) is exactly `title` (`expect-title "text" [within D]`).
    public static func title(_ title: String, within: Duration? = nil) -> AppExpectation {
        AppExpectation(.expectTitle(.text(title), within: within))
    }
    /// The title matches this regular expression (`expect-title /regex/ [within D]`).
    public static func titleRegex(_ pattern: String, within: Duration? = nil) -> AppExpectation {
        AppExpectation(.expectTitle(.regex(pattern), within: within))
    }
    /// The program's last clipboard write (OSC 52) is exactly `text` (`expect-clipboard "text" [within D]`).
    public static func clipboard(_ text: String, within: Duration? = nil) -> AppExpectation {
        AppExpectation(.expectClipboard(.text(text), within: within))
    }
    /// The program's last clipboard write matches this regular expression (`expect-clipboard /regex/`).
    public static func clipboardRegex(_ pattern: String, within: Duration? = nil) -> AppExpectation {
        AppExpectation(.expectClipboard(.regex(pattern), within: within))
    }

    // MARK: Snapshots

    /// Once the screen equals the reference (or, without one, is quiet for 100ms), it matches the
    /// snapshot `<test>.<name>` (`snapshot NAME [AREA]`; masks and style as in `.screen(masks:style:)`).
    public static func snapshot(_ name: String, masks: [SnapshotMask] = [], style: Bool = false, area: ScreenArea? = nil) -> AppExpectation {
        if masks.isEmpty, !style { return AppExpectation(.snapshot(name: name, area: area)) }
        return AppExpectation(body: .snapshot(name: name, area: area, masks: masks, style: style),
                              description: FlowCommand.snapshot(name: name, area: area).flowText)
    }
    /// The transcript (scrollback and screen) matches the snapshot `<test>.<name>` (`snapshot-transcript NAME`).
    public static func transcriptSnapshot(_ name: String) -> AppExpectation { AppExpectation(.snapshotTranscript(name: name)) }

    // MARK: The bridge

    /// The app's spy has recorded exactly this many calls (waits for the last of them): `spy NAME count N`.
    public static func spyCount(_ name: String, _ count: Int) -> AppExpectation { AppExpectation(.spyCount(name: name, count: count)) }
    /// The events called `name` received so far have these values, in order (`event NAME sequence V1,V2`):
    /// a value matches when its JSON text is the word (`42`, `"loaded"`) or it is a JSON string holding it (`loaded`).
    public static func events(_ name: String, _ values: [String]) -> AppExpectation {
        AppExpectation(.eventSequence(name: name, values: values))
    }
    /// The spy's last call equals the JSON in the file at `path` (absolute, or relative to the
    /// working directory): `spy NAME last FILE.json` (key order and number spelling ignored).
    public static func spyLast(_ name: String, equals path: String) -> AppExpectation {
        AppExpectation(.spyLast(name: name, file: FlowFileReference(written: path, directory: FileManager.default.currentDirectoryPath)))
    }
    /// The app's probe reads this JSON value (`probe NAME equals JSON`).
    public static func probe(_ name: String, equals json: String) -> AppExpectation {
        AppExpectation(.probe(name: name, expected: .inline(json)))
    }
    /// Calling the handler or probe with these params answers this JSON (`call NAME JSON equals JSON`).
    public static func call(_ name: String, json: String = "null", equals expected: String) -> AppExpectation {
        AppExpectation(.call(name: name, params: .inline(json), expected: .inline(expected)))
    }

    // MARK: Files, requests, exit

    /// The sandbox holds `name` (`file NAME exists`).
    public static func fileExists(_ name: String) -> AppExpectation { AppExpectation(.fileExists(name: name)) }
    /// The sandbox does not hold `name` (`file NAME missing`).
    public static func fileMissing(_ name: String) -> AppExpectation { AppExpectation(.fileMissing(name: name)) }
    /// The sandbox's `name` has the bytes of the file at `path` (absolute, or relative to the
    /// working directory, the package root under `swift test`): `file NAME equals FILE`.
    public static func file(_ name: String, equals path: String) -> AppExpectation {
        AppExpectation(.fileEquals(name: name, file: FlowFileReference(written: path, directory: FileManager.default.currentDirectoryPath)))
    }
    /// The stub server given to `run(_:stubServer:)` received exactly `count` such requests
    /// (`requests METHOD PATH count N`).
    public static func requests(_ method: String, _ path: String, count: Int) -> AppExpectation {
        AppExpectation(.requestCount(method: method.uppercased(), path: path, count: count))
    }
    /// The program has ended this way (`exit CODE`; a signal N is status 128+N).
    public static func exit(_ status: ExitStatus) -> AppExpectation {
        switch status {
        case .exited(let code): AppExpectation(.exit(code: code))
        case .signaled(let signal): AppExpectation(.exit(code: 128 + signal))
        }
    }
    /// A run with pipes: once the program exited, its standard output passes `check`
    /// (`stdout contains "text"`, `stdout empty`...).
    public static func standardOutput(_ check: FlowStreamCheck) -> AppExpectation { AppExpectation(.streamCheck(.stdout, check)) }
    /// A run with pipes: once the program exited, its standard error passes `check`.
    public static func standardError(_ check: FlowStreamCheck) -> AppExpectation { AppExpectation(.streamCheck(.stderr, check)) }

    /// Any other condition (a stub journal, a file): returns nil when met, else what is wrong.
    public static func check(_ description: String, _ body: @escaping @Sendable (TerminalApp) async throws -> String?) -> AppExpectation {
        AppExpectation(body: .check(body), description: description)
    }
}

/// Thrown by ``TerminalApp/run(_:stubServer:filePath:function:)-(AppStep...)`` after a step
/// failed; the failure itself was reported at the step's own line.
package struct AppStepsFailed: Error, CustomStringConvertible {
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
