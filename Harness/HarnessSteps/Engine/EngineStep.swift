import Foundation
import HarnessCore
import TerminalEmulator

/// One step as the step engine runs it, whichever front end wrote it: a flow line parsed into a
/// ``FlowCommand``, or a Swift `AppStep`'s action or expectation.
///
/// Both front ends spell the same values: `expect "Loading…"` in a flow and
/// `.text("Loading…")` in Swift are both ``Body/command(_:)`` with
/// ``FlowCommand/expect(_:within:area:style:)``, run by the same code with the same failure
/// message. Only what a flow file cannot write (a Swift closure) has a body of its own.
public struct EngineStep: Sendable {
    /// What the step does.
    public enum Body: Sendable {
        /// A command of the flow language.
        case command(FlowCommand)
        /// A screen snapshot with masks or a style layer (what Swift's `.snapshot(_:masks:style:)`
        /// adds to the flow's `snapshot NAME [AREA]`): the same waits, files and record modes.
        case snapshot(name: String, area: ScreenArea?, masks: [SnapshotMask], style: Bool)
        /// Waits until the screen satisfies a predicate (Swift only).
        case screen(@Sendable (ScreenSnapshot) -> Bool)
        /// Runs an action on the app (Swift only).
        case perform(@Sendable (TerminalApp) async throws -> Void)
        /// Checks the app: nil when met, else what is wrong (Swift only).
        case check(@Sendable (TerminalApp) async throws -> String?)
    }

    /// What the step does.
    public var body: Body
    /// The step as messages and traces show it (`expect "Loading…"`).
    public var text: String
    /// Where it was written: a flow line, or a Swift call's file, line and column.
    public var position: SourcePosition

    /// A step with its text and position.
    public init(_ body: Body, text: String, position: SourcePosition) {
        self.body = body
        self.text = text
        self.position = position
    }

    /// A flow command as a step: its text is the command as a flow writes it.
    public init(_ step: FlowStep) {
        self.init(.command(step.command), text: step.command.flowText, position: step.position)
    }
}
