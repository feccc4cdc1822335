import Foundation
import TestSupport
import Testing
import Harness
import HarnessFlows

/// `HARNESS_OUTPUT_LIMIT` sets the output limit of a run's sessions; a value that is not a size
/// is a usage error before anything runs.
@Suite struct OutputLimitFlowTests {
    /// 1 MiB of `x`, then `END`: with a 64 KiB limit the pipe keeps the end, and the check passes.
    static let flood = "app sh -c \"head -c 1048576 /dev/zero | tr '\\\\0' x; printf END\"\nlaunch pipes\nstdout contains \"xEND\"\nexit 0\n"

    @Test func aRunKeepsTheEndOfAStreamUnderASmallLimit() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try fixture.write(Self.flood, at: "suite/flood.flow")
        let output = try await runHarness(["run", "suite"], in: fixture.folder, environment: ["HARNESS_OUTPUT_LIMIT": "64KiB"])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.lastLine == "1 passed, 0 failed")
    }

    /// A failed check says how much of the stream's start was dropped.
    @Test func aFailureSaysWhatWasDropped() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try fixture.write(Self.flood.replacingOccurrences(of: "\"xEND\"", with: "\"never\""), at: "suite/flood.flow")
        let output = try await runHarness(["run", "suite"], in: fixture.folder, environment: ["HARNESS_OUTPUT_LIMIT": "64KiB"])
        #expect(output.status == 1)
        let dropped = 1_048_576 + 3 - 65_536
        #expect(output.stdout.contains("stdout after its first \(dropped) bytes (dropped: output limit) (65536 bytes, the last 300): …xxx"),
                "\(output.stdout)")
    }

    @Test func aLimitThatIsNotASizeIsAUsageError() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try fixture.write(Self.flood, at: "suite/flood.flow")
        let output = try await runHarness(["run", "suite"], in: fixture.folder, environment: ["HARNESS_OUTPUT_LIMIT": "lots"])
        #expect(output.status == 64)
        #expect(output.stderr.contains(#"harness run: HARNESS_OUTPUT_LIMIT: output limit "lots": write a size such as 64MiB"#),
                "\(output.stderr)")
        #expect(output.stdout.isEmpty)
    }
}
