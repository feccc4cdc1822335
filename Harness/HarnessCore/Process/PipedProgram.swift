import Foundation

/// Runs a program with pipes instead of a terminal (`todo list --json`, `curl`, a CLI under
/// test) and awaits its end without tying up a thread of Swift's cooperative pool: a
/// ``PipedSession`` waited on without a time limit, then terminated (with anything it left
/// running in its process group).
///
/// ```swift
/// let result = try await PipedProgram.run(todoPath, arguments: ["list", "--json"])
/// #expect(result.status == .exited(0))
/// #expect(result.standardOutput.contains("delectus"))
/// ```
public enum PipedProgram {
    /// What a program printed and how it ended.
    public struct Output: Sendable, Hashable {
        /// How the program ended.
        public var status: ExitStatus
        /// Everything written to standard output, as bytes (its last bytes, when it went over
        /// the output limit: see ``droppedStandardOutputBytes``).
        public var standardOutputData: Data
        /// Everything written to standard error, as bytes (its last bytes past the output limit).
        public var standardErrorData: Data
        /// How many of the first bytes of standard output were dropped because it went over
        /// the session's output limit (``PipedSession/Configuration/outputLimit``): then
        /// ``standardOutputData`` holds only its last bytes. 0 when it all fit.
        public var droppedStandardOutputBytes = 0
        /// The same for standard error.
        public var droppedStandardErrorBytes = 0

        /// Everything written to standard output, decoded as UTF-8 (invalid bytes become U+FFFD).
        public var standardOutput: String { String(decoding: standardOutputData, as: UTF8.self) }
        /// Everything written to standard error, decoded as UTF-8 (invalid bytes become U+FFFD).
        public var standardError: String { String(decoding: standardErrorData, as: UTF8.self) }

        /// The exit code, or 128 + the signal number, as a shell reports it.
        public var shellStatus: Int32 {
            switch status {
            case .exited(let code): code
            case .signaled(let signal): 128 + signal
            }
        }
    }

    /// Runs `executable` (a path, or a name looked up in `PATH`) with `arguments`, feeding it
    /// `input` (then end of file; nil: `/dev/null`), and returns once it has exited and both of
    /// its outputs are read to the end.
    ///
    /// - Parameters:
    ///   - environment: the whole environment (default: this process's made hermetic for pipes,
    ///     see ``ProgramEnvironment``).
    ///   - workingDirectory: where it runs (default: this process's).
    /// - Throws: ``PipedSessionError`` when it cannot be launched.
    public static func run(
        _ executable: String,
        arguments: [String] = [],
        environment: [String: String]? = nil,
        workingDirectory: String? = nil,
        input: Data? = nil
    ) async throws -> Output {
        var configuration = PipedSession.Configuration(executable: executable, arguments: arguments)
        if let environment { configuration.environment = environment }
        configuration.workingDirectory = workingDirectory
        configuration.standardInput = input.map { .data($0) } ?? .empty
        let session = try PipedSession.launch(configuration)
        let result: Result<Output, any Error>
        do { result = .success(try await session.core.wait(timeout: nil)) } catch { result = .failure(error) }
        await session.terminated()
        return try result.get()
    }
}
