import Foundation
import HarnessHost
import HarnessSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A todo shaped like jsonplaceholder's.
struct Todo: Codable, Sendable, Equatable {
    var userId: Int
    var id: Int
    var title: String
    var completed: Bool
}

/// The fixture's state, guarded by a lock because probes run on the bridge's thread.
final class FixtureState: Sendable {
    private let value = Locked("idle")
    var current: String { value.withLock { $0 } }
    func set(_ new: String) { value.withLock { $0 = new } }
}

/// A tiny app for the bridge tests: it exposes a spy, a probe, handlers and events.
///
/// - `inert-report` as the first app argument: prints, as JSON, the open descriptors and
///   threads before and after `HarnessHost.start`, and the remaining arguments, then exits.
/// - `BRIDGE_FIXTURE_NO_HOST=1` in the environment: never connects; prints its arguments and
///   waits for the end of its input.
/// - otherwise it serves the bridge until a `quit` call, SIGTERM, or a `crash` call (abort).
@main
struct BridgeFixtureApp {
    static func main() {
        // `thread-scaling N`: the transport's thread count with one and with N connections.
        if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "thread-scaling" {
            ThreadScalingReport.run(pairs: Int(CommandLine.arguments[2]) ?? 0)
        }
        // `BRIDGE_FIXTURE_NO_HOST=1`: an app that never connects; it shows its arguments and waits.
        if ProcessInfo.processInfo.environment["BRIDGE_FIXTURE_NO_HOST"] == "1" {
            print("not connecting: \(CommandLine.arguments.dropFirst().joined(separator: " "))")
            while readLine() != nil {}
            exit(0)
        }
        let fdsBefore = countEntries("/proc/self/fd")
        let threadsBefore = countEntries("/proc/self/task")
        let launch: HarnessLaunch
        do { launch = try HarnessHost.start(appName: "bridge-fixture-app") } catch {
            FileHandle.standardError.write(Data("launch arguments: \(error)\n".utf8))
            exit(64)
        }
        let fdsAfter = countEntries("/proc/self/fd")
        let threadsAfter = countEntries("/proc/self/task")
        let arguments = Array(launch.remainingArguments.dropFirst())

        if arguments.first == "inert-report" {
            let report: [String: String] = [
                "fdsBefore": "\(fdsBefore)", "fdsAfter": "\(fdsAfter)",
                "threadsBefore": "\(threadsBefore)", "threadsAfter": "\(threadsAfter)",
                "hostIsNil": "\(launch.host == nil)", "optionsIsNil": "\(launch.options == nil)",
                "remaining": arguments.joined(separator: " "),
            ]
            let data = try! JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
            FileHandle.standardOutput.write(data)
            exit(0)
        }
        guard let host = launch.host else {
            FileHandle.standardError.write(Data("no bridge: \(launch.bridgeError.map { "\($0)" } ?? "no arguments")\n".utf8))
            exit(launch.bridgeError == nil ? 0 : 3)
        }
        serve(host)
    }

    static func serve(_ host: HarnessHost) {
        let state = FixtureState()
        let saves = host.spy("database.save", of: [Todo].self)
        host.probe("state") { state.current }
        host.handle("given", as: String.self) { new in
            state.set(new)
            host.publish("state", new)
            return new
        }
        host.handle("save", as: [Todo].self) { todos in
            saves.record(todos)
            return todos.count
        }
        host.handle("echo", as: [Todo].self) { todos in todos }
        host.handle("publish", as: Int.self) { count in
            for index in 0..<count { host.publish("tick", index) }
            return count
        }
        host.handle("crash") { abort() }
        host.handle("quit", as: Int32.self) { code in exit(code) }
        host.probe("malformed") { ["not": "a todo"] }
        host.publish("state", state.current)
        host.ready()
        // The main thread has nothing else to do: it serves the main queue until the process ends.
        dispatchMain()
    }

    static func countEntries(_ path: String) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: path).count) ?? -1
    }
}
