import Foundation
import HarnessCore
import HarnessSteps

extension JUnitReport {
    /// The report of a flow run: one suite, one test case per flow (sorted by path).
    ///
    /// A flow's class name is its folder with dots (`Tests.Flows`, `flows` at the root) and its
    /// name the file name. Failed flows carry `<failure type="FlowFailure">` (the type is
    /// `failureType`: `harness swift-test` says `TestFailure`) (and
    /// `<rerunFailure>` for retries); flaky flows are passed cases with a `<flakyFailure>` per
    /// failed attempt; skipped flows carry `<skipped message>`; interrupted flows (the run was
    /// cancelled) carry `<error type="interrupted" message="interrupted by SIGINT">`: an error,
    /// not a skip, so that CI tools count and show them as not passed (Jenkins, GitLab and the
    /// GitHub JUnit reporters list errors with failures, while skipped cases read as neutral),
    /// and apart from the flows' own failures by their type. Every case records its status
    /// and attempts as properties and in `<system-out>`.
    public init(results: [FlowResult], suiteName: String = "harness", failureType: String = "FlowFailure",
                timestamp: Date? = nil, hostname: String? = nil) {
        let cases = results.sorted { $0.path < $1.path }.map { JUnitTestCase(result: $0, failureType: failureType) }
        let stamp = timestamp.map { date -> String in
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime]
            return formatter.string(from: date)
        }
        self.init(name: suiteName, suites: [JUnitTestSuite(name: suiteName, timestamp: stamp, hostname: hostname, cases: cases)])
    }
}

extension JUnitTestCase {
    /// The test case of one flow result; its failures are of type `failureType`.
    public init(result: FlowResult, failureType: String = "FlowFailure") {
        let classname = result.folder.isEmpty ? "flows" : result.folder.replacingOccurrences(of: "/", with: ".")
        let failures = result.attempts.compactMap(\.failure).map { JUnitFailureDetail(failure: $0, type: failureType) }
        let verdict: Result
        var flaky: [JUnitFailureDetail] = []
        var reruns: [JUnitFailureDetail] = []
        switch result.status {
        case .passed:
            verdict = .passed
        case .flaky:
            verdict = .passed
            flaky = failures
        case .failed:
            verdict = .failure(failures.last ?? JUnitFailureDetail(message: "failed", type: failureType, body: ""))
            reruns = Array(failures.dropLast())
        case .skipped:
            verdict = .skipped(message: result.skipReason)
        case .interrupted:
            let interruption = result.interruption ?? FlowFailure(message: "interrupted")
            verdict = .error(JUnitFailureDetail(message: interruption.summary, type: "interrupted",
                                                body: JUnitFailureDetail(failure: interruption).body))
            reruns = failures
        }
        let log = result.attempts.map { attempt -> String in
            let time = String(format: "%.3fs", attempt.duration.flowSeconds)
            switch attempt.outcome {
            case .passed: return "attempt \(attempt.number): passed (\(time))"
            case .failed(let failure): return "attempt \(attempt.number): failed (\(time)): \(failure)"
            case .skipped(let reason): return "attempt \(attempt.number): skipped: \(reason)"
            case .interrupted(let interruption): return "attempt \(attempt.number): interrupted (\(time)): \(interruption)"
            }
        }
        self.init(
            classname: classname,
            name: result.name,
            file: result.flow.relativePath,  // the file, whatever its matrix case or repetition
            time: result.duration.flowSeconds,
            result: verdict,
            flakyFailures: flaky,
            rerunFailures: reruns,
            properties: [
                JUnitProperty(name: "status", value: result.status.rawValue),
                JUnitProperty(name: "attempts", value: String(result.attempts.count)),
            ],
            systemOut: log.joined(separator: "\n")
        )
    }
}

extension JUnitFailureDetail {
    /// A flow failure as JUnit: the message attribute is `file:line:col: first line`, the body
    /// the whole message and the artifacts.
    public init(failure: FlowFailure, type: String = "FlowFailure") {
        var body = failure.description
        let artifacts = failure.artifacts
        let listed: [(String, String?)] = [
            ("recording", artifacts.cast), ("screen", artifacts.screenText), ("screen (SVG)", artifacts.screenSVG),
            ("screen (PNG)", artifacts.screenPNG),
            ("stub journal", artifacts.journal), ("bridge events", artifacts.events),
            ("stdout", artifacts.stdout), ("stderr", artifacts.stderr),
        ]
        let present = listed.compactMap { label, path in path.map { "  \(label): \($0)" } }
        if !present.isEmpty { body += "\n\nArtifacts:\n" + present.joined(separator: "\n") }
        let summary = failure.position.map { "\($0): \(failure.summary)" } ?? failure.summary
        self.init(message: summary, type: type, body: body)
    }
}
