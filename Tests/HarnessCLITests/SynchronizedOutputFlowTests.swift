import Foundation
import TestSupport
import Testing
import Harness
@testable import HarnessFlows
@testable import HarnessSteps

/// A program that stalls inside a synchronized frame (mode 2026): the 150 ms safety limit shows
/// what it drew, and both front ends' traces say so.
@Suite struct SynchronizedOutputFlowTests {
    /// Draws "old", starts a frame, draws half of it and waits for input for good.
    static let program = """
        stty -echo
        printf 'old\\r\\n\\033[?2026h\\033[2J\\033[Hhalf'
        read x

        """

    static let notice = "synchronized frame 1 released by the 150 ms limit (the program did not reset mode 2026)"

    @Test func aFlowsTraceSaysTheLimitReleasedAFrame() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try fixture.write(Self.program, at: "stall.sh")
        var options = testOptions()
        let traces = FlowTraceCollector(mode: .on)
        options.traces = traces
        let outcome = try await fixture.run("""
            app sh ./stall.sh
            size 30x4
            launch
            expect "half"
            """, options: options)
        #expect(outcome == .passed)
        let trace = try #require(traces.traces["t.flow"]?[1])
        #expect(trace.messages.filter { $0.kind == .terminal }.map(\.value) == [Self.notice])
    }

    @Test func aSwiftTestsTraceSaysItToo() async throws {
        var launch = AppLaunch(executable: "/bin/sh", arguments: ["-c", Self.program])
        launch.environment = testEnvironment
        launch.size = TerminalSize(cols: 30, rows: 4)
        launch.defaultTimeout = mustSucceedTimeout
        let app = try await TerminalApp.launch(launch)
        defer { app.close(failed: false) }
        let traces = FlowTraceCollector(mode: .on)
        var options = FlowExecutor.Options(environment: testEnvironment)
        options.traces = traces
        let outcome = await StepEngine.run(
            AppStep.expect(.text("half")).engineSteps, app: app,
            test: SnapshotPlace(filePath: "\(#filePath)", function: #function), name: "sync", options: options)
        #expect(outcome == .passed)
        #expect(app.notices.map(\.text) == [Self.notice])
        let trace = try #require(traces.traces["sync"]?[1])
        #expect(trace.messages.filter { $0.kind == .terminal }.map(\.value) == [Self.notice])

        // The trace of a whole `with` (the session journal's report) has it as well.
        try withTemporaryDirectory { folder in
            SessionTraceReport.write(name: "Sync/test()", filePath: "\(#filePath)", app: app, startDate: Date(),
                                     failure: nil, folder: folder.path)
            let report = try RunReportWriter.read(folder: folder.path)
            let written = try #require(report.flows.first?.attempts.last?.trace)
            #expect(written.messages.filter { $0.kind == .terminal }.map(\.value) == [Self.notice])
        }
    }
}
