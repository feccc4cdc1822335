import Foundation
import HarnessFlows
import Stubs
import Synchronization
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

    /// The traced `TerminalApp.with` the current task runs in, if any.
    @TaskLocal static var scope: Scope?

    /// One traced `with`: where its trace goes, since when, the app its steps belong to (the
    /// first one they run on) and the stub servers they named.
    final class Scope: Sendable {
        let folder: String
        let startDate = Date()
        private let state = Mutex<(app: ObjectIdentifier?, servers: [StubServer])>((nil, []))

        init(folder: String) {
            self.folder = folder
        }

        /// Whether steps on `app` belong to this `with`'s timeline; notes the server they read.
        func claims(_ app: TerminalApp, stubServer: StubServer?) -> Bool {
            state.withLock { state in
                let id = ObjectIdentifier(app)
                if state.app == nil { state.app = id }
                guard state.app == id else { return false }
                if let stubServer, !state.servers.contains(where: { $0 === stubServer }) { state.servers.append(stubServer) }
                return true
            }
        }

        /// The stub servers the steps named.
        var stubServers: [StubServer] { state.withLock { $0.servers } }
    }

    static var current: String? {
        if let folder { return folder }
        return ProcessInfo.processInfo.environment["HARNESS_ARTIFACTS"].flatMap { $0.isEmpty ? nil : $0 }
    }
}
