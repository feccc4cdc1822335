import Foundation
import HarnessCore

/// What a finished program printed, with its status as a shell reports it (`128 + n` for
/// signal `n`).
public struct ProgramOutput: Sendable {
    /// The exit status, or 128 + the signal.
    public var status: Int32
    /// Standard output, as UTF-8 text.
    public var stdout: String
    /// Standard error, as UTF-8 text.
    public var stderr: String

    /// The last non-empty line of standard output.
    public var lastLine: String {
        stdout.split(separator: "\n", omittingEmptySubsequences: true).last.map(String.init) ?? ""
    }
}

/// Runs `executable` with pipes to its end and collects its output; the waiting happens off
/// Swift's cooperative pool, so other tests running meanwhile are never starved of threads.
///
/// - Parameters:
///   - environment: the whole environment (default: this process's).
///   - workingDirectory: where it runs (default: this process's).
public func runProgram(
    _ executable: String, _ arguments: [String] = [], input: Data? = nil,
    environment: [String: String]? = nil, workingDirectory: String? = nil
) async throws -> ProgramOutput {
    let result = try await PipedProgram.run(
        executable, arguments: arguments, environment: environment, workingDirectory: workingDirectory, input: input)
    return ProgramOutput(status: result.shellStatus, stdout: result.standardOutput, stderr: result.standardError)
}

/// Runs the built product `name` (``BuildProducts``) like ``runProgram(_:_:input:environment:workingDirectory:)``.
public func runProduct(
    _ name: String, _ arguments: [String] = [], input: Data? = nil,
    environment: [String: String]? = nil, workingDirectory: String? = nil
) async throws -> ProgramOutput {
    try await runProgram(
        try BuildProducts.executable(named: name).path, arguments, input: input,
        environment: environment, workingDirectory: workingDirectory)
}
