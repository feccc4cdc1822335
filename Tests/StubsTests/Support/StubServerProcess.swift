import Foundation
import Harness
import HarnessCore
@testable import Stubs
import Synchronization

/// The standalone `stub-server` executable running as a subprocess of the test.
///
/// Launched with the harness's own `PipedSession`, not Foundation's `Process`, whose `run`
/// reads past `readdir`'s buffer and once crashed the test process (see FixtureProcess).
/// Its waits (for the first line, for the exit) only catch a program that hangs; they never
/// decide a passing test's outcome, so they last as long as the test may (`patience`): on a
/// loaded machine a debug build's start or exit took over 10 s. Tests start it through `offPool`
/// (the first line is waited for on the calling thread), so no wait holds a pool thread.
final class StubServerProcess: Sendable {
    static let patience: TimeInterval = 120

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let session: PipedSession
    let baseURL: URL

    /// Starts `stub-server` with `arguments` and reads the base URL from its first stdout line.
    init(arguments: [String]) throws {
        let firstLine = FirstLine()
        var configuration = PipedSession.Configuration(
            executable: try BuildProducts.executable(named: "stub-server").path, arguments: arguments)
        configuration.defaultTimeout = .seconds(Self.patience)
        configuration.onOutput = { stream, bytes in
            if stream == .standardOutput { firstLine.append(bytes) }
        }
        session = try PipedSession.launch(configuration)
        guard firstLine.read.wait(timeout: .now() + Self.patience) == .success,
              let line = firstLine.line, let url = URL(string: line), url.scheme == "http"
        else {
            session.terminate(grace: .zero)
            let errors = String(decoding: session.standardErrorSoFar, as: UTF8.self)
            throw Failure(description: "stub-server printed no base URL; stderr: \(errors)")
        }
        baseURL = url
    }

    /// Sends `signal` and waits for the exit.
    func stop(signal: Int32 = SIGTERM, timeout: TimeInterval = StubServerProcess.patience) async throws -> HarnessCore.ExitStatus {
        kill(session.pid, signal)
        do {
            return try await session.waitForExit(timeout: .seconds(timeout)).status
        } catch {
            session.terminate(grace: .zero)
            throw Failure(description: "stub-server did not exit within \(timeout) s of signal \(signal)")
        }
    }

    deinit { session.terminate(grace: .zero) }
}

/// The first line the stub server prints, gathered from its output as it comes.
private final class FirstLine: Sendable {
    private let bytes = Mutex<[UInt8]>([])
    let read = DispatchSemaphore(value: 0)

    func append(_ chunk: [UInt8]) {
        let complete = bytes.withLock { bytes -> Bool in
            let had = bytes.contains(10)
            bytes += chunk
            return !had && bytes.contains(10)
        }
        if complete { read.signal() }
    }

    var line: String? {
        bytes.withLock { bytes in
            bytes.contains(10) ? String(decoding: bytes.prefix { $0 != 10 }, as: UTF8.self) : nil
        }
    }
}
