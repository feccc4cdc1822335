import HarnessCore

/// Asserts that `reducer` takes `initialValue` through `steps`: each step's message changes the
/// state exactly as its `update` says and returns exactly its `effect`.
///
/// Failures are reported at each failing step's own line, naming the fields that differ,
/// under Swift Testing or XCTest.
///
/// ```swift
/// assertSteps(
///     initialValue: TodoListState(),
///     reducer: { state, message in state.handle(message) },
///     steps:
///         Step(.start, effect: .loadTodos) { $0.status = .loading },
///         Step(.todosReceived(.failure(oops))) { $0.status = .error(reason: oops.reason) }
/// )
/// ```
public func assertSteps<State: Equatable, Message, Effect: Equatable>(
    initialValue: State,
    reducer: (inout State, Message) -> Effect?,
    steps: Step<State, Message, Effect>...
) {
    assertSteps(initialValue: initialValue, reducer: reducer, steps: steps)
}

/// The array form of ``assertSteps(initialValue:reducer:steps:)-variadic``.
public func assertSteps<State: Equatable, Message, Effect: Equatable>(
    initialValue: State,
    reducer: (inout State, Message) -> Effect?,
    steps: [Step<State, Message, Effect>]
) {
    for failure in verifySteps(initialValue: initialValue, reducer: reducer, steps: steps) {
        FailureReporter.fail(failure.description, at: failure.location)
    }
}

