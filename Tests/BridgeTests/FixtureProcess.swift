import Foundation
import Harness
import HarnessCore

/// The `bridge-fixture-app` running as a child process, wired to a listener.
///
/// Launched with the harness's own `PipedSession`, not Foundation's `Process`: `Process.run`
/// copies 256 bytes of each `/proc/self/fd` entry's name (`findMaximumOpenFromProcSelfFD`),
/// past the end of `readdir`'s buffer, and once under load that read crossed into an unmapped
/// page and crashed the whole test process (docs/RELIABILITY.md).
final class FixtureProcess: Sendable {
    let session: PipedSession

    /// The fixture's process id.
    var pid: Int32 { session.pid }

    /// Launches the fixture with `arguments` and `environment`; reports its exit to `listener`.
    init(arguments: [String], environment: [String: String], listener: BridgeListener?) throws {
        var merged = ProcessInfo.processInfo.environment
        merged.removeValue(forKey: "HARNESS_BRIDGE_TOKEN")
        merged["SWIFT_BACKTRACE"] = "enable=no"  // a crash ends the process at once
        merged.merge(environment) { $1 }
        var configuration = PipedSession.Configuration(
            executable: try BuildProducts.executable(named: "bridge-fixture-app").path, arguments: arguments)
        configuration.environment = merged
        configuration.defaultTimeout = .seconds(600)
        session = try PipedSession.launch(configuration)
        guard let listener else { return }
        // On the session's own thread when the fixture exits (or `terminate()` ends it): the
        // listener learns why without waiting for a turn on the cooperative pool, which a
        // loaded run can keep busy for a minute.
        session.onExit { [weak listener] output in listener?.appExited(output.status.description) }
    }

    /// Launches the fixture on `listener`'s bridge.
    convenience init(listener: BridgeListener, extraEnvironment: [String: String] = [:]) throws {
        try self.init(
            arguments: listener.arguments, environment: listener.environment.merging(extraEnvironment) { $1 },
            listener: listener)
    }

    /// Waits for the fixture to end by itself; returns how, and what it printed.
    func waitForExit() async throws -> PipedSession.Output {
        try await session.waitForExit(timeout: .seconds(600))
    }

    /// Kills the fixture's process group at once and reaps it.
    func terminate() {
        session.terminate(grace: .zero)
    }
}

/// A todo shaped like jsonplaceholder's (the fixture's type, decoded on the test side).
struct Todo: Codable, Sendable, Equatable {
    var userId: Int
    var id: Int
    var title: String
    var completed: Bool

    static func sample(_ count: Int) -> [Todo] {
        (1...count).map { Todo(userId: ($0 - 1) / 20 + 1, id: $0, title: "todo number \($0)", completed: $0 % 3 == 0) }
    }
}
