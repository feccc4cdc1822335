import Foundation
import Harness
import Testing
import TestSupport

/// The `.harnessTrace` trait: a test's steps leave their trace in the trait's folder, which
/// `harness merge-reports` (through `RunReportWriter.read`) reads as a run report.
@Suite struct HarnessTraceTraitTests {
    /// In the build folder, removed by the test.
    static let folder = BuildProducts.directory.appendingPathComponent("trace-trait-test").path

    @Test(.harnessTrace(folder)) func stepsLeaveTheirTraceInTheTraitsFolder() async throws {
        try? FileManager.default.removeItem(atPath: Self.folder)
        defer { try? FileManager.default.removeItem(atPath: Self.folder) }
        var launch = AppLaunch(executable: "/bin/sh", arguments: ["-c", "echo ready; read line; echo got $line"])
        launch.defaultTimeout = mustSucceedTimeout
        try await TerminalApp.with(launch) { app in
            try await app.run(AppStep.expect(.text("ready")), AppStep(.type("x\r"), expect: .output("got x")))
        }
        let report = try RunReportWriter.read(folder: Self.folder)
        let test = try #require(report.flows.first)
        #expect(report.flows.count == 1)
        #expect(test.path == "HarnessTests.HarnessTraceTraitTests/stepsLeaveTheirTraceInTheTraitsFolder()")
        #expect(test.status == .passed)
        #expect(test.attempts.last?.trace?.steps.map(\.text) == [#"expect "ready""#, #"type "x\r""#, #"expect-output "got x""#])
    }
}
