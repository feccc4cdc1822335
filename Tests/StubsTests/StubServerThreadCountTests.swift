#if os(Linux)
import Foundation
import Testing
import TestSupport

/// Stub servers share the process's one event loop: twenty live servers, each with a hanging
/// connection open, run on the threads one server runs on (no thread per server, per
/// connection, per delay or per wait).
///
/// Counted in a process of its own (`stub-threads-fixture`): in the test process other tests
/// start and end threads all the time, so a count there would not be exact.
@Suite struct StubServerThreadCountTests {
    struct Report: Decodable {
        let servers: Int
        let threadsWithOne: Int
        let threadsWithAll: Int
        let threadsAfterStop: Int
    }

    /// What the runtime may add on its own between the two readings (a worker of the
    /// cooperative pool or of Dispatch woken meanwhile); a thread per server would add 19.
    static let slack = 3

    @Test func twentyServersRunOnTheThreadsOfOne() async throws {
        let output = try await runProduct("stub-threads-fixture", ["20"])
        #expect(output.status == 0, "stub-threads-fixture failed: \(output.stderr)")
        let report = try JSONDecoder().decode(Report.self, from: Data(output.lastLine.utf8))
        #expect(report.servers == 20)
        #expect(
            report.threadsWithAll <= report.threadsWithOne + Self.slack,
            "threads with 1 server: \(report.threadsWithOne), with 20: \(report.threadsWithAll)")
        #expect(
            report.threadsAfterStop <= report.threadsWithOne + Self.slack,
            "threads with 1 server: \(report.threadsWithOne), after stopping all: \(report.threadsAfterStop)")
    }
}
#endif
