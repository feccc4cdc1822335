import Foundation
import Harness
@testable import HarnessFlows

/// The output of one run of the built `harness` executable.
struct HarnessOutput {
    var status: Int32
    var standardOutput: String
    var standardError: String

    /// The last line of standard output.
    var lastLine: String {
        standardOutput.split(separator: "\n", omittingEmptySubsequences: true).last.map(String.init) ?? ""
    }
}

/// Runs `harness ARGUMENTS` in `directory` and waits for it (off the cooperative pool).
func runHarness(_ arguments: [String], in directory: String, environment extra: [String: String] = [:]) async throws -> HarnessOutput {
    var environment = ProcessInfo.processInfo.environment
    environment["HARNESS_RECORD"] = "never"
    environment["HARNESS_PRODUCTS_DIR"] = BuildProducts.directory.path
    for (key, value) in extra { environment[key] = value }
    let result = try await PipedProgram.run(
        try BuildProducts.executable(named: "harness").path, arguments: arguments,
        environment: environment, workingDirectory: directory
    )
    return HarnessOutput(status: result.shellStatus, standardOutput: result.standardOutput, standardError: result.standardError)
}
