import Foundation

/// Runs a program with pipes instead of a terminal (`todo list --json`, `curl`, a CLI under
/// test) and awaits its end without tying up a thread of Swift's cooperative pool: the output
/// is read and the exit awaited on threads of their own.
///
/// ```swift
/// let result = try await PipedProgram.run(todoPath, arguments: ["list", "--json"])
/// #expect(result.status == .exited(0))
/// #expect(result.standardOutput.contains("delectus"))
/// ```
public enum PipedProgram {
    /// What a program printed and how it ended.
    public struct Output: Sendable {
        /// How the program ended.
        public var status: ExitStatus
        /// Everything written to standard output, decoded as UTF-8.
        public var standardOutput: String
        /// Everything written to standard error, decoded as UTF-8.
        public var standardError: String
        /// The exit code, or 128 + the signal number, as a shell reports it.
        public var shellStatus: Int32 {
            switch status {
            case .exited(let code): code
            case .signaled(let signal): 128 + signal
            }
        }
    }

    /// Runs `executable` (a path) with `arguments`, feeding it `input` (then end of file), and
    /// returns once it has exited and both of its outputs are read to the end.
    ///
    /// - Parameters:
    ///   - environment: the whole environment (default: this process's).
    ///   - workingDirectory: where it runs (default: this process's).
    public static func run(
        _ executable: String,
        arguments: [String] = [],
        environment: [String: String]? = nil,
        workingDirectory: String? = nil,
        input: Data? = nil
    ) async throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let workingDirectory { process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory) }
        let output = Pipe(), error = Pipe(), standardInput = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = input == nil ? FileHandle.nullDevice : standardInput

        return try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                do {
                    try process.run()
                } catch {
                    continuation.resume(throwing: error)
                    return
                }
                if let input {
                    // Written on a thread of its own, so a program that does not read cannot stall us.
                    let writer = Thread {
                        try? standardInput.fileHandleForWriting.write(contentsOf: input)
                        try? standardInput.fileHandleForWriting.close()
                    }
                    writer.start()
                }
                let errorText = ThreadResult<Data>()
                let errorReader = Thread { errorText.set(error.fileHandleForReading.readDataToEndOfFile()) }
                errorReader.start()
                let outputData = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                let status: ExitStatus = process.terminationReason == .uncaughtSignal
                    ? .signaled(process.terminationStatus) : .exited(process.terminationStatus)
                continuation.resume(returning: Output(
                    status: status,
                    standardOutput: String(decoding: outputData, as: UTF8.self),
                    standardError: String(decoding: errorText.wait(), as: UTF8.self)
                ))
            }
            thread.name = "PipedProgram \(executable)"
            thread.start()
        }
    }
}

/// A value handed from one thread to another, awaited with a condition variable.
final class ThreadResult<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: Value?

    func set(_ newValue: Value) {
        condition.lock()
        value = newValue
        condition.broadcast()
        condition.unlock()
    }

    func wait() -> Value {
        condition.lock()
        defer { condition.unlock() }
        while value == nil { condition.wait() }
        return value!
    }
}
