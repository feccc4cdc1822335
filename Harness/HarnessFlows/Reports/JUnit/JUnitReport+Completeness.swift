import HarnessSteps

extension JUnitReport {
    /// The suite `harness merge-reports --allow-partial` adds to the JUnit of an incomplete
    /// run, so that every CI's test view shows it: a failing test case (GitHub, GitLab,
    /// Jenkins, CircleCI and Buildkite all list failed cases, few show properties).
    package static let completenessSuite = "harness.completeness"

    /// The report with one more suite, ``completenessSuite``: a property `incomplete` = `true`
    /// and one test case, `every planned shard and flow ran once`, failed with
    /// `type="IncompleteRun"`, the first problem (and how many more) as its message and every
    /// `problem` in its text.
    package func markedIncomplete(_ problems: [String]) -> JUnitReport {
        var report = self
        let more = problems.count > 1 ? " (and \(problems.count - 1) more)" : ""
        let failure = JUnitFailureDetail(
            message: "the run is incomplete: \(problems.first ?? "")\(more)", type: "IncompleteRun",
            body: "harness merge-reports --allow-partial merged what arrived; missing or doubled:\n"
                + problems.map { "- " + $0 }.joined(separator: "\n"))
        let testCase = JUnitTestCase(classname: Self.completenessSuite, name: "every planned shard and flow ran once", time: 0,
                                     result: .failure(failure))
        report.suites.append(JUnitTestSuite(name: Self.completenessSuite, properties: [JUnitProperty(name: "incomplete", value: "true")],
                                            cases: [testCase]))
        return report
    }
}
