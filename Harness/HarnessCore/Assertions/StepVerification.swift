/// One step of a state machine test: a message, and what it must do.
///
/// `update` mutates a copy of the previous state into the expected one; `effect` is the
/// effect the machine must return (`nil`: none). The step remembers where it was written,
/// and its failure is reported there.
public struct Step<State, Message, Effect> {
    /// The message sent to the machine.
    package var message: Message
    /// The effect the machine must return, or `nil` for none.
    package var effect: Effect?
    /// Turns the previous state into the expected one.
    package var update: (inout State) -> Void
    /// Where the step was written.
    package var location: SourceCodeLocation

    /// Creates a step: send `message`; the state changes as `update` says; `effect` comes out.
    ///
    /// ```swift
    /// Step(.start, effect: .loadTodos) { $0.status = .loading }
    /// ```
    public init(
        _ message: Message,
        effect: Effect? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column,
        _ update: @escaping (inout State) -> Void = { _ in }
    ) {
        self.message = message
        self.effect = effect
        self.update = update
        self.location = SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

/// A failed step: which one, where it was written, and what differed.
package struct StepFailure: Sendable, CustomStringConvertible {
    /// The step's 1-based position.
    public var index: Int
    /// Where the step was written.
    public var location: SourceCodeLocation
    /// The message, printed.
    public var message: String
    /// The state fields that differ from the expectation.
    public var stateDifferences: [ValueDiff.Difference]
    /// The expected and actual effect, printed, when they differ.
    public var effectMismatch: (expected: String, actual: String)?

    public var description: String {
        var lines = ["Step \(index) (\(message)) failed:"]
        if !stateDifferences.isEmpty {
            lines.append("  state differs:")
            lines += stateDifferences.map { "    \($0)" }
        }
        if let effectMismatch {
            lines.append("  effect: expected \(effectMismatch.expected), got \(effectMismatch.actual)")
        }
        return lines.joined(separator: "\n")
    }
}

/// Runs `steps` through `reducer` from `initialValue` and returns the failures, without reporting.
///
/// Each step is checked against the state the previous step really produced, so one wrong
/// step does not make every later one fail.
package func verifySteps<State: Equatable, Message, Effect: Equatable>(
    initialValue: State,
    reducer: (inout State, Message) -> Effect?,
    steps: [Step<State, Message, Effect>]
) -> [StepFailure] {
    var state = initialValue
    var failures: [StepFailure] = []
    for (offset, step) in steps.enumerated() {
        var expected = state
        step.update(&expected)
        let effect = reducer(&state, step.message)
        let stateDifferences = state == expected ? [] : ValueDiff.differences(expected, state)
        let effectMismatch: (String, String)? = effect == step.effect ? nil : (describe(step.effect), describe(effect))
        if state != expected || effectMismatch != nil {
            failures.append(StepFailure(
                index: offset + 1,
                location: step.location,
                message: String(describing: step.message),
                stateDifferences: stateDifferences.isEmpty && state != expected
                    ? [ValueDiff.Difference(path: "", expected: String(reflecting: expected), actual: String(reflecting: state))]
                    : stateDifferences,
                effectMismatch: effectMismatch
            ))
        }
    }
    return failures
}

private func describe<T>(_ value: T?) -> String {
    value.map { String(reflecting: $0) } ?? "nil"
}
