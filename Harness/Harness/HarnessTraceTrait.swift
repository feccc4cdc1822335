import Foundation
import HarnessFlows
import Testing

/// A Swift Testing trait that makes the steps of a test (or of every test of a suite) leave
/// the trace `harness run --artifacts` leaves for a flow, in `folder`, as `HARNESS_ARTIFACTS`
/// does for a whole run:
///
/// ```swift
/// @Suite(.harnessTrace(".build/traces")) struct CheckoutTests { ... }
/// ```
///
/// Each run of `AppStep`s (and each flow of ``FlowCases``) then writes its steps with their
/// lines, screens, stub requests, bridge events and recording to `folder/swift-tests/`, and its
/// failure's artifacts to `folder`; `harness merge-reports OUT folder` makes the report. A
/// relative folder is relative to the working directory (the package root under `swift test`).
public struct HarnessTraceTrait: TestTrait, SuiteTrait, TestScoping {
    /// Where the traces go.
    public var folder: String

    /// On a suite, every test in it traces.
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await HarnessTrace.$folder.withValue(folder) { try await function() }
    }
}

extension Trait where Self == HarnessTraceTrait {
    /// Traces the steps of this test, or of every test of this suite, into `folder`.
    public static func harnessTrace(_ folder: String) -> HarnessTraceTrait { HarnessTraceTrait(folder: folder) }
}

/// Where the running test's steps leave their trace: the ``HarnessTraceTrait``'s folder, else
/// `HARNESS_ARTIFACTS`, else nowhere.
enum HarnessTrace {
    @TaskLocal static var folder: String?

    /// One traced `with`: where its trace goes, and since when.
    final class Scope: Sendable {
        let folder: String
        let startDate = Date()

        init(folder: String) {
            self.folder = folder
        }
    }

    static var current: String? {
        if let folder { return folder }
        return ProcessInfo.processInfo.environment["HARNESS_ARTIFACTS"].flatMap { $0.isEmpty ? nil : $0 }
    }
}
