import Foundation
import Harness
@testable import Stubs
import Synchronization

/// The standalone `stub-server` executable running as a subprocess of the test.
///
/// Its waits (for the first line, for the exit) only catch a program that hangs; they never
/// decide a passing test's outcome, so they last as long as the test may (`patience`): on a
/// loaded machine a debug build's start or exit took over 10 s. Tests call the blocking parts
/// through `offPool`, so the wait never holds a thread of the cooperative pool.
final class StubServerProcess: @unchecked Sendable {
    static let patience: TimeInterval = 120

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let process = Process()
    let baseURL: URL
    private let stdout = Pipe()
    private let stderr = Pipe()
    private let exited = DispatchSemaphore(value: 0)

    /// Starts `stub-server` with `arguments` and reads the base URL from its first stdout line.
    init(arguments: [String]) throws {
        process.executableURL = try BuildProducts.executable(named: "stub-server")
        process.arguments = arguments
        process.standardOutput = stdout
        process.standardError = stderr
        let exited = self.exited
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        // Read the first line on a helper thread; wait for it with a deadline (no polling).
        let firstLine = FirstLine()
        let lineRead = DispatchSemaphore(value: 0)
        let handle = stdout.fileHandleForReading
        Thread.detachNewThread {
            var bytes: [UInt8] = []
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                bytes += data
                if bytes.contains(10) { break }
            }
            firstLine.value.withLock { $0 = String(decoding: bytes.prefix { $0 != 10 }, as: UTF8.self) }
            lineRead.signal()
        }
        guard lineRead.wait(timeout: .now() + Self.patience) == .success, let line = firstLine.value.withLock({ $0 }), let url = URL(string: line),
              url.scheme == "http"
        else {
            process.terminate()
            _ = exited.wait(timeout: .now() + 5)
            let errors = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw Failure(description: "stub-server printed no base URL; stderr: \(errors)")
        }
        baseURL = url
    }

    /// Sends `signal` and waits for the exit; returns the termination status and reason.
    func stop(signal: Int32 = SIGTERM, timeout: TimeInterval = StubServerProcess.patience) throws -> (Int32, Process.TerminationReason) {
        if process.isRunning { kill(process.processIdentifier, signal) }
        guard exited.wait(timeout: .now() + timeout) == .success else {
            kill(process.processIdentifier, SIGKILL)
            _ = exited.wait(timeout: .now() + 5)
            throw Failure(description: "stub-server did not exit within \(timeout) s of signal \(signal)")
        }
        exited.signal()  // Let deinit's wait return at once.
        return (process.terminationStatus, process.terminationReason)
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            _ = exited.wait(timeout: .now() + 5)
        }
    }
}

/// The first line the stub server prints, shared with the thread that reads it.
private final class FirstLine: Sendable {
    let value = Mutex<String?>(nil)
}
