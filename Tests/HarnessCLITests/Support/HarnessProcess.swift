import Foundation
import Harness
import HarnessFlows
import TestSupport

/// Runs `harness ARGUMENTS` in `directory` and waits for it (off the cooperative pool).
/// `harness run` gets `--timeout` of ``mustSucceedTimeout`` unless the arguments set one: its
/// own default (10 s) is a limit a loaded machine can reach in a flow that must pass. A flow
/// that fails by waiting sets a short `timeout` step of its own. `removing` names variables
/// the harness must not get (`HOME`, the CI's own shard variables).
func runHarness(_ arguments: [String], in directory: String, environment extra: [String: String] = [:],
                removing: [String] = []) async throws -> ProgramOutput {
    var arguments = arguments
    if arguments.first == "run", !arguments.contains("--timeout") {
        arguments += ["--timeout", "\(mustSucceedTimeout.components.seconds)s"]
    }
    var environment = ProcessInfo.processInfo.environment
    environment["HARNESS_RECORD"] = "never"
    environment["HARNESS_PRODUCTS_DIR"] = BuildProducts.directory.path
    for name in removing { environment[name] = nil }
    for (key, value) in extra { environment[key] = value }
    return try await runProduct("harness", arguments, environment: environment, workingDirectory: directory)
}
