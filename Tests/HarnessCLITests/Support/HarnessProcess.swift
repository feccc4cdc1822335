import Foundation
import Harness
import TestSupport

/// Runs `harness ARGUMENTS` in `directory` and waits for it (off the cooperative pool).
func runHarness(_ arguments: [String], in directory: String, environment extra: [String: String] = [:]) async throws -> ProgramOutput {
    var environment = ProcessInfo.processInfo.environment
    environment["HARNESS_RECORD"] = "never"
    environment["HARNESS_PRODUCTS_DIR"] = BuildProducts.directory.path
    for (key, value) in extra { environment[key] = value }
    return try await runProduct("harness", arguments, environment: environment, workingDirectory: directory)
}
