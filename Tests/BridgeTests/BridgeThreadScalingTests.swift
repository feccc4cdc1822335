#if os(Linux)
import Foundation
import Testing
import TestSupport
import Harness

/// The bridge's transport starts no thread per connection or per listener: every socket of a
/// process is watched by its one event loop.
///
/// Measured in the fixture app (`thread-scaling N`), a process doing nothing else: the test
/// process runs every other suite in parallel, whose threads come and go.
@Suite struct BridgeThreadScalingTests {
    /// Threads a process may gain between one and twenty live pairs without growing per
    /// connection (a thread per connection would be +38 or more).
    static let slack = 2

    @Test func twentyConnectionPairsUseTheThreadsOfOne() async throws {
        let fixture = try FixtureProcess(arguments: ["thread-scaling", "20"], environment: [:], listener: nil)
        defer { fixture.terminate() }
        let output = try await fixture.waitForExit()
        #expect(output.status == .exited(0), "\(output.standardError)")
        let report = try JSONDecoder().decode([String: Int].self, from: Data(output.standardOutput.utf8))
        let one = try #require(report["one"], "\(output.standardOutput)")
        let many = try #require(report["many"], "\(output.standardOutput)")
        #expect(many - one <= Self.slack, "threads with 1 pair: \(one), with 20 pairs: \(many)")
        #expect(try #require(report["afterClose"]) <= many)
        #expect(report["fdsAfterClose"] == report["fdsBefore"], "descriptors left open: \(report)")
    }
}
#endif
