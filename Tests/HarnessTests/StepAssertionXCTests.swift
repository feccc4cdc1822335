import Harness
import XCTest

/// Checks that the step helper reports through XCTest when XCTest is the running framework.
final class StepAssertionXCTests: XCTestCase {
    private var recorded: [(description: String, line: Int)] = []
    private var capturing = false

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if capturing {
            recorded.append((description, lineNumber))
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    func testFailuresAreReportedWithXCTFailAtTheStepsLine() {
        capturing = true
        let line = #line + 2
        assertSteps(initialValue: Counter(), reducer: counterReducer, steps:
            Step(.increment) { $0.count = 2; $0.history = [1] })
        capturing = false
        XCTAssertEqual(recorded.count, 1)
        XCTAssertEqual(recorded.first?.line, line)
        XCTAssertTrue(recorded.first?.description.contains("count: expected 2, got 1") ?? false, "\(recorded)")
    }

    func testPassingStepsRecordNothing() {
        capturing = true
        assertSteps(initialValue: Counter(), reducer: counterReducer, steps: Step(.increment) { $0.count = 1; $0.history = [1] })
        capturing = false
        XCTAssertTrue(recorded.isEmpty)
    }
}
