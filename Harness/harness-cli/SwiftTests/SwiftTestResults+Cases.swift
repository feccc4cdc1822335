import Foundation
import HarnessCore
import HarnessFlows

/// One argument case of a parameterized test, as Swift Testing's event stream tells it: its id
/// and arguments, when it started and ended (seconds on the stream's clock), the issues it
/// recorded, and why it was cancelled (`Test.cancel`, as `FlowCases` cancels a flow whose
/// program is not installed).
struct SwiftTestCase: Sendable {
    var id: String
    var displayName: String
    var started: Double?
    var ended: Double?
    var issues: [SwiftTestIssue] = []
    var cancelled: String?

    init(id: String, displayName: String) {
        self.id = id
        self.displayName = displayName
    }
}

extension SwiftTestResults {
    /// Changes the case `testCase` of `test` (added when the test's record did not list it).
    mutating func updateCase(_ testCase: EventRecord.TestCase, of test: String, _ change: (inout SwiftTestCase) -> Void) {
        var cases = parameterCases[test, default: []]
        let index = cases.firstIndex { $0.id == testCase.id } ?? {
            cases.append(SwiftTestCase(id: testCase.id, displayName: testCase.displayName))
            return cases.count - 1
        }()
        change(&cases[index])
        parameterCases[test] = cases
    }

    /// One result per argument case of `identifier`, named ``SwiftTestCaseName`` (the same
    /// arguments twice get `#2`), when it is a parameterized test whose cases the event stream
    /// saw run; nil otherwise (one result then stands for the whole test, as for an issue
    /// recorded outside its cases, or a test skipped as a whole).
    ///
    /// A case failed when it recorded an issue, was skipped when it was cancelled, and passed
    /// otherwise; one the stream never saw end is interrupted (with `interruption`) or has no
    /// result (`swift test` stopped: `problem`).
    func caseResults(of identifier: String, problem: String?, interruption: String?) -> [FlowResult]? {
        guard let cases = parameterCases[identifier], cases.contains(where: { $0.started != nil }),
              !issuesOutsideCases.contains(identifier) else { return nil }
        var seen: [String: Int] = [:]
        return cases.map { testCase in
            seen[testCase.displayName, default: 0] += 1
            let count = seen[testCase.displayName]!
            let arguments = count == 1 ? testCase.displayName : "\(testCase.displayName) #\(count)"
            let name = SwiftTestCaseName.name(test: identifier, arguments: arguments)
            let outcome: AttemptOutcome
            var duration = Duration.zero
            if let started = testCase.started, let ended = testCase.ended {
                duration = .milliseconds(Int64(((ended - started) * 1000).rounded()))
            }
            if testCase.ended == nil {
                let message = interruption.map { $0 + (testCase.started == nil ? ": not started" : "") }
                outcome = message.map { .interrupted(FlowFailure(message: $0, position: locations[identifier])) }
                    ?? .failed(FlowFailure(message: "swift test reported no result for this case" + (problem.map { ": \($0)" } ?? ""),
                                           position: locations[identifier]))
            } else if !testCase.issues.isEmpty {
                outcome = .failed(Self.failure(of: testCase.issues, position: locations[identifier]))
            } else if let reason = testCase.cancelled {
                outcome = .skipped(reason: reason)
            } else {
                outcome = .passed
            }
            return FlowResult(flow: FlowFile(path: identifier, relativePath: name),
                              attempts: [FlowAttempt(number: 1, duration: duration, outcome: outcome)], parentTest: identifier)
        }
    }
}
