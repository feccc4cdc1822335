import HarnessSteps
/// The name reports give one argument case of a parameterized Swift test, so that
/// `harness swift-test` shows each case (each flow of `FlowCases`) as a case of its own: the
/// test's name as `swift test list` prints it, then the case's arguments in brackets, as Swift
/// Testing describes them in its event stream (each `String(describingForTest:)`, joined by
/// `, `):
///
/// ```swift
/// SwiftTestCaseName.name(test: "AppTests.Flows/flow(_:)", arguments: "Tests/Flows/login.flow")
/// // "AppTests.Flows/flow(_:) [Tests/Flows/login.flow]"
/// ```
///
/// The runner names the results so, and a case that leaves a trace (`FlowCases`) names its
/// trace so, which is how the report finds each case's own timeline.
package enum SwiftTestCaseName {
    /// The case of `test` whose arguments Swift Testing describes as `arguments`.
    package static func name(test: String, arguments: String) -> String {
        "\(test) [\(arguments)]"
    }

    /// Whether `name` is `test` itself or one of its cases.
    package static func name(_ name: String, isOf test: String) -> Bool {
        name == test || name.hasPrefix(test + " [")
    }
}
