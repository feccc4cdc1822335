import Foundation
import Testing
import HarnessCore

/// A C string ends at its first NUL, so `true\0; rm -rf x` given as a program, an argument, an
/// environment value or a working directory would silently become something else. Both kinds of
/// session refuse it before anything is spawned, naming what held the NUL.
@Suite struct LaunchNULTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let executable: String
        var arguments: [String] = []
        var environment: [String: String] = [:]
        var workingDirectory: String?
        let named: String
    }

    static let cases = [
        Case(testDescription: "executable", executable: "true\0rm", named: "the executable"),
        Case(testDescription: "argument", executable: "true", arguments: ["a", "b\0c"], named: "argument 2"),
        Case(testDescription: "environment", executable: "true", environment: ["X": "1\02"], named: "the environment variable \"X\""),
        Case(testDescription: "working directory", executable: "true", workingDirectory: "/tmp\0/x", named: "the working directory"),
    ]

    @Test(arguments: cases)
    func aTerminalSessionRefusesANUL(_ launch: Case) throws {
        var configuration = TerminalSession.Configuration(executable: launch.executable, arguments: launch.arguments)
        configuration.environment.merge(launch.environment) { $1 }
        configuration.workingDirectory = launch.workingDirectory
        do {
            let session = try TerminalSession.launch(configuration)
            session.terminate()
            Issue.record("launched \(launch.executable.debugDescription) with a NUL byte")
        } catch let error as TerminalSessionError {
            guard case .invalidConfiguration(let reason) = error else { Issue.record("got \(error)"); return }
            #expect(reason.hasPrefix("\(launch.named) contains a NUL byte"), "\(reason)")
        }
    }

    @Test(arguments: cases)
    func aPipedSessionRefusesANUL(_ launch: Case) throws {
        var configuration = PipedSession.Configuration(executable: launch.executable, arguments: launch.arguments)
        configuration.environment.merge(launch.environment) { $1 }
        configuration.workingDirectory = launch.workingDirectory
        do {
            let session = try PipedSession.launch(configuration)
            session.terminate()
            Issue.record("launched \(launch.executable.debugDescription) with a NUL byte")
        } catch {
            guard case .invalidConfiguration(let reason) = error else { Issue.record("got \(error)"); return }
            #expect(reason.hasPrefix("\(launch.named) contains a NUL byte"), "\(reason)")
        }
    }
}
