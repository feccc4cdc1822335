// TEMPORARY stand-in for the lead's TerminalApp (CONTRACT-app.md) so the executor can be
// written and tested before it lands. Deleted when main's TerminalApp is merged.
import Foundation

public enum LaunchProtocol: Sendable { case none, arguments, bridge }

public struct AppLaunch: Sendable {
    public var executable: String
    public var arguments: [String]
    public var environment: [String: String] = [:]
    public var size: TerminalSize = .standard
    public var workingDirectory: String?
    public var defaultTimeout: Duration = .seconds(10)
    public var launchProtocol: LaunchProtocol = .bridge
    public var network: URL?
    public var initialState: String?
    public var frozenClock: Date?
    public var values: [String: String] = [:]
    public var seeds: [String: Data] = [:]
    public var readyTimeout: Duration = .seconds(10)
    public init(executable: String, arguments: [String] = []) {
        self.executable = executable
        self.arguments = arguments
    }
}

public struct Sandbox: Sendable {
    public let directory: URL
    public func read(_ name: String) throws -> Data { try Data(contentsOf: directory.appendingPathComponent(name)) }
    public func fileExists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path) }
}

public final class TerminalApp: Sendable {
    public let session: TerminalSession
    public let sandbox: Sandbox

    init(session: TerminalSession, sandbox: Sandbox) {
        self.session = session
        self.sandbox = sandbox
    }

    public static func launch(_ launch: AppLaunch) async throws -> TerminalApp {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pending-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, data) in launch.seeds {
            let url = directory.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in launch.environment { environment[key] = value }
        let session = try TerminalSession.launch(.init(
            executable: launch.executable, arguments: launch.arguments, environment: environment,
            workingDirectory: launch.workingDirectory, size: launch.size, defaultTimeout: launch.defaultTimeout))
        return TerminalApp(session: session, sandbox: Sandbox(directory: directory))
    }

    @discardableResult public func terminate() -> ExitStatus { session.terminate() }

    public func close(failed: Bool) {
        session.terminate()
        try? FileManager.default.removeItem(at: sandbox.directory)
    }
}
