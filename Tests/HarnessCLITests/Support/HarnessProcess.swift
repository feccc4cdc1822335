import Foundation
@testable import Harness

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

/// Runs `harness ARGUMENTS` in `directory` and waits for it (reading its output to the end).
func runHarness(_ arguments: [String], in directory: String, environment extra: [String: String] = [:]) throws -> HarnessOutput {
    let process = Process()
    process.executableURL = try BuildProducts.executable(named: "harness")
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    var environment = ProcessInfo.processInfo.environment
    environment["HARNESS_RECORD"] = "never"
    environment["HARNESS_PRODUCTS_DIR"] = BuildProducts.directory.path
    for (key, value) in extra { environment[key] = value }
    process.environment = environment
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // Read both pipes to the end (concurrently, so neither can fill up and block the child).
    let errorData = LockedData()
    let errorReader = Thread { errorData.set(error.fileHandleForReading.readDataToEndOfFile()) }
    errorReader.start()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let errorText = errorData.waitForValue()
    return HarnessOutput(status: process.terminationStatus,
                         standardOutput: String(decoding: outputData, as: UTF8.self),
                         standardError: String(decoding: errorText, as: UTF8.self))
}

/// Data handed from a reader thread, awaited with a condition variable.
final class LockedData: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: Data?

    func set(_ data: Data) {
        condition.lock()
        value = data
        condition.broadcast()
        condition.unlock()
    }

    func waitForValue() -> Data {
        condition.lock()
        defer { condition.unlock() }
        while value == nil { condition.wait() }
        return value!
    }
}
