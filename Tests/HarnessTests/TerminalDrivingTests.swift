import Foundation
import Harness
import Testing
import TestSupport

/// `TerminalDriving`: one helper, written once against the protocol, drives a bare session and
/// an app alike (the example in TerminalDriving.swift's documentation, verbatim).
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/bc"), "bc is not installed"))
struct TerminalDrivingTests {
    func calculate(_ expression: String, on terminal: some TerminalDriving) async throws -> String {
        try terminal.type(expression + "\r")
        return try await terminal.waitForOutput(regex: "^-?[0-9.]+$").text
    }

    /// The helper's answers (the echo of the typed line does not match).
    func check(_ terminal: some TerminalDriving) async throws {
        #expect(try await calculate("6*7", on: terminal) == "42")
        #expect(try await calculate("10-13", on: terminal) == "-3")
        try terminal.type("quit\r")
        #expect(try await terminal.waitForExit() == .exited(0))
        #expect(terminal.exitStatus == .exited(0))
        #expect(terminal.screen.text.contains("42"))
    }

    @Test func drivesASession() async throws {
        let configuration = TerminalSession.Configuration(
            executable: "/usr/bin/bc", arguments: ["-q"], defaultTimeout: mustSucceedTimeout)
        try await TerminalSession.withSession(configuration) { session in
            #expect(session.terminalSession === session)
            try await check(session)
        }
    }

    @Test func drivesAnApp() async throws {
        var launch = AppLaunch(executable: "/usr/bin/bc", arguments: ["-q"])
        launch.defaultTimeout = mustSucceedTimeout
        try await TerminalApp.with(launch) { app in
            #expect(app.terminalSession === app.session)
            try await check(app)
        }
    }
}
