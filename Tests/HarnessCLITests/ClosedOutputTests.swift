import Foundation
import Testing
import Harness
import HarnessFlows
import HarnessCore
import TestSupport

/// `harness run ... | head -1`: a standard output closed early never stops the run; it writes
/// its JUnit and report and exits with its own status.
@Suite struct ClosedOutputTests {
    @Test(arguments: [(failing: false, status: Int32(0)), (failing: true, status: Int32(1))])
    func aClosedStandardOutputDoesNotStopTheRun(failing: Bool, status: Int32) async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        for index in 1...6 {
            try fixture.write("""
                app sh -c "echo ready; exec cat"
                launch
                expect "\(failing && index == 6 ? "never" : "ready")" within \(failing && index == 6 ? "100ms" : "60s")
                """, at: "flows/f\(index).flow")
        }
        // `head -1` reads the first line and exits, closing the pipe; the harness's own status
        // goes to a file (a pipeline's status is head's).
        let harness = try BuildProducts.executable(named: "harness").path
        var environment = testEnvironment
        environment["HARNESS_PRODUCTS_DIR"] = BuildProducts.directory.path
        environment["HARNESS_RECORD"] = "never"
        let output = try await runProgram(
            "/bin/sh", ["-c", #"{ "$0" run flows --jobs 1 --junit junit.xml --artifacts artifacts --trace on; echo $? > status; } | head -1"#, harness],
            environment: environment, workingDirectory: fixture.folder)
        #expect(output.stdout == "Running 6 flows on 1 worker\n")
        let junit = try String(contentsOfFile: fixture.folder + "/junit.xml", encoding: .utf8)
        #expect(junit.contains("tests=\"6\""))
        #expect(junit.contains("failures=\"\(failing ? 1 : 0)\""))
        #expect(FileManager.default.fileExists(atPath: fixture.folder + "/artifacts/index.html"))
        #expect(FileManager.default.fileExists(atPath: fixture.folder + "/artifacts/results.json"))
        let written = try String(contentsOfFile: fixture.folder + "/status", encoding: .utf8)
        #expect(written == "\(status)\n", "the run's own status, not 141 (SIGPIPE)")
    }
}
