import Foundation
import HarnessSystem
import XCTest

/// Counts the failures XCTest reports to its observers in this process, for
/// `TerminalApp.with` to tell whether an XCTest test failed while its app was open.
///
/// The observer is registered the first time a `with` runs outside Swift Testing, from that
/// test's task (XCTest offers no hook that runs earlier without the user's help). Registration
/// happens once, under a lock; XCTest itself does not lock its observer list, so a failure
/// recorded by another thread of the same test at that very moment could meet the insertion.
final class XCTestFailureCounter: NSObject, XCTestObservation, Sendable {
    private static let shared = XCTestFailureCounter()
    private static let registered = Locked(false)
    private let failures = Locked(0)

    /// Registers the observer if needed and returns the failures counted so far.
    static func start() -> Int {
        registered.withLock { registered in
            guard !registered else { return }
            registered = true
            XCTestObservationCenter.shared.addTestObserver(shared)
        }
        return count
    }

    /// The failures counted since the observer was registered.
    static var count: Int { shared.failures.withLock { $0 } }

    #if canImport(Darwin)
    func testCase(_ testCase: XCTestCase, didRecord issue: XCTIssue) {
        failures.withLock { $0 += 1 }
    }
    #else
    func testCase(_ testCase: XCTestCase, didFailWithDescription description: String, inFile filePath: String?, atLine lineNumber: Int) {
        failures.withLock { $0 += 1 }
    }
    #endif
}
