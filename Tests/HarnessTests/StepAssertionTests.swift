import Foundation
import Harness
import Testing
import HarnessSystem

/// A tiny machine to test the step helper with.
struct Counter: Equatable {
    var count = 0
    var label = "start"
    var history: [Int] = []
}

enum CounterMessage { case increment, rename(String), reset }
enum CounterEffect: Equatable { case announce(Int) }

func counterReducer(_ state: inout Counter, _ message: CounterMessage) -> CounterEffect? {
    switch message {
    case .increment:
        state.count += 1
        state.history.append(state.count)
        return state.count == 3 ? .announce(3) : nil
    case .rename(let label):
        state.label = label
        return nil
    case .reset:
        state = Counter()
        return nil
    }
}

final class FailureLog: Sendable {
    private let entries = Locked<[(String, UInt)]>([])
    func add(_ message: String, _ location: SourceCodeLocation) { entries.withLock { $0.append((message, location.line)) } }
    var all: [(message: String, line: UInt)] { entries.withLock { $0.map { ($0.0, $0.1) } } }
}

@Suite struct StepAssertionTests {
    @Test func passingStepsReportNothing() {
        let failures = verifySteps(initialValue: Counter(), reducer: counterReducer, steps: [
            Step(.increment) { $0.count = 1; $0.history = [1] },
            Step(.increment) { $0.count = 2; $0.history = [1, 2] },
            Step(.increment, effect: .announce(3)) { $0.count = 3; $0.history = [1, 2, 3] },
            Step(.reset) { $0 = Counter() },
        ])
        #expect(failures.isEmpty)
    }

    @Test func aWrongStepPointsAtItsOwnLineAndNamesTheFields() {
        let log = FailureLog()
        let expectedLine: UInt = #line + 5
        FailureReporter.withFailureHandler(log.add) {
            assertSteps(initialValue: Counter(), reducer: counterReducer, steps:
                Step(.increment) { $0.count = 1; $0.history = [1] },
                Step(.rename("b")) { $0.label = "b" },
                Step(.increment) { $0.count = 5; $0.history = [1, 2] }
            )
        }
        #expect(log.all.count == 1)
        #expect(log.all.first?.line == expectedLine)
        let message = log.all.first?.message ?? ""
        #expect(message.contains("Step 3 (increment) failed"))
        #expect(message.contains("count: expected 5, got 2"))
        #expect(!message.contains("label"))
        #expect(!message.contains("history"))
    }

    @Test func aMissingOrWrongEffectIsReported() {
        let failures = verifySteps(initialValue: Counter(count: 2), reducer: counterReducer, steps: [
            Step(.increment) { $0.count = 3; $0.history = [3] },
            Step(.rename("x"), effect: .announce(9)) { $0.label = "x" },
        ])
        #expect(failures.map(\.index) == [1, 2])
        #expect(failures[0].description.contains("effect: expected nil, got CounterEffect.announce(3)") || failures[0].description.contains("effect: expected nil, got HarnessTests.CounterEffect.announce(3)"))
        #expect(failures[0].stateDifferences.isEmpty)
        #expect(failures[1].effectMismatch?.actual == "nil")
    }

    @Test func laterStepsAreCheckedAgainstTheRealState() {
        let failures = verifySteps(initialValue: Counter(), reducer: counterReducer, steps: [
            Step(.rename("a")) { $0.label = "wrong" },
            Step(.increment) { $0.count = 1; $0.history = [1] },
        ])
        #expect(failures.map(\.index) == [1])
        #expect(failures[0].stateDifferences.map(\.path) == ["label"])
    }

    @Test func collectionDifferencesNameTheIndex() {
        let differences = ValueDiff.differences(Counter(history: [1, 2, 3]), Counter(history: [1, 9, 3, 4]))
        #expect(differences.map(\.path) == ["history.count", "history[1]"])
    }

    @Test func enumPayloadDifferencesNameTheCase() {
        enum Status { case loaded([String]), error(reason: String) }
        struct Box { var status: Status }
        #expect(ValueDiff.differences(Box(status: .loaded(["a", "b"])), Box(status: .loaded(["a", "c"]))).map(\.path) == ["status.loaded[1]"])
        #expect(ValueDiff.differences(Box(status: .loaded([])), Box(status: .error(reason: "x"))).map(\.path) == ["status"])
    }

    @Test func failuresGoToSwiftTestingAsIssues() {
        withKnownIssue {
            assertSteps(initialValue: Counter(), reducer: counterReducer, steps: Step(.increment) { $0.count = 7 })
        } matching: { issue in
            issue.description.contains("count: expected 7, got 1") && issue.sourceLocation?.fileName == "StepAssertionTests.swift"
        }
    }
}
