import Foundation
import Harness

/// The `bridge-fixture-app` running as a child process, wired to a listener.
final class FixtureProcess: @unchecked Sendable {
    let process = Process()
    let output = Pipe()

    /// Launches the fixture with `arguments` and `environment`; reports its exit to `listener`.
    init(arguments: [String], environment: [String: String], listener: BridgeListener?) throws {
        process.executableURL = try BuildProducts.executable(named: "bridge-fixture-app")
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        merged.removeValue(forKey: "HARNESS_BRIDGE_TOKEN")
        merged["SWIFT_BACKTRACE"] = "enable=no"  // a crash ends the process at once
        merged.merge(environment) { $1 }
        process.environment = merged
        process.standardOutput = output
        process.terminationHandler = { [weak listener] process in
            let status = process.terminationReason == .uncaughtSignal
                ? "killed by signal \(process.terminationStatus)" : "exited with status \(process.terminationStatus)"
            listener?.appExited(status)
        }
        try process.run()
    }

    /// Launches the fixture on `listener`'s bridge.
    convenience init(listener: BridgeListener, extraEnvironment: [String: String] = [:]) throws {
        try self.init(
            arguments: listener.arguments, environment: listener.environment.merging(extraEnvironment) { $1 },
            listener: listener)
    }

    /// Reads all of standard output (the process must end by itself).
    func readOutput() -> String {
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Kills the fixture (SIGKILL: a child spawned from a Dispatch worker inherits its blocked
    /// signal mask, so SIGTERM may never be delivered) and reaps it.
    func terminate() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
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
