import Foundation
import Harness
import HarnessCore
import HarnessSystem
@testable import Stubs

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
        guard let line = firstLine.wait(timeout: .seconds(Self.patience)), let url = URL(string: line), url.scheme == "http"
        else {
            session.terminate(grace: .zero)
            let errors = String(decoding: session.standardErrorSoFar, as: UTF8.self)
            throw Failure(description: "stub-server printed no base URL; stderr: \(errors)")
        }
        baseURL = url
    }

    /// Sends `signal` and waits for the exit.
    func stop(signal: Int32 = SIGTERM, timeout: TimeInterval = StubServerProcess.patience) async throws -> HarnessCore.ExitStatus {
        self.signal(signal)
        return try await waitForExit(timeout: timeout, after: "signal \(signal)")
    }

    /// Sends `signal` (from any thread).
    func signal(_ signal: Int32) {
        kill(session.pid, signal)
    }

    /// Waits for the exit (a signal sent before, `after` says which, for the message).
    func waitForExit(
        timeout: TimeInterval = StubServerProcess.patience, after cause: String = "the signal"
    ) async throws -> HarnessCore.ExitStatus {
        do {
            return try await session.waitForExit(timeout: .seconds(timeout)).status
        } catch {
            session.terminate(grace: .zero)
            throw Failure(description: "stub-server did not exit within \(timeout) s of \(cause)")
        }
    }

    deinit { session.terminate(grace: .zero) }
}

/// The first line the stub server prints, gathered from its output as it comes.
private final class FirstLine: Sendable {
    private let bytes = Locked<[UInt8]>([])

    func append(_ chunk: [UInt8]) {
        bytes.withLockNotifying { $0 += chunk }
    }

    /// Blocks until a whole line arrived and returns it; nil after `timeout`.
    func wait(timeout: Duration) -> String? {
        let deadline = MonotonicClock.deadline(after: timeout)
        guard bytes.wait(until: { $0.contains(10) }, deadline: deadline) else { return nil }
        return bytes.withLock { String(decoding: $0.prefix { $0 != 10 }, as: UTF8.self) }
    }
}
