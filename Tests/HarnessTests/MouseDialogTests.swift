import Foundation
import TestSupport
import Testing
import Harness
import TerminalEmulator

/// dialog (ncurses) driven with the mouse on a real pseudo-terminal.
@Suite(.enabled(if: isInstalled("dialog"), "dialog is not installed"))
struct MouseDialogTests {
    static func launchMenu() async throws -> TerminalSession {
        let session = try TerminalSession.launch(.init(
            executable: "dialog",
            arguments: ["--stdout", "--menu", "Pick a vegetable", "12", "40", "3",
                        "apple", "A fruit", "bean", "A legume", "carrot", "A root"],
            environment: testEnvironment, size: TerminalSize(cols: 60, rows: 16), defaultTimeout: mustSucceedTimeout))
        try await session.waitFor(text: "carrot")
        return session
    }

    /// Clicks `item`, presses Enter (OK) and returns what dialog printed last: the chosen tag.
    static func choose(_ item: String) async throws -> String {
        let session = try await launchMenu()
        defer { session.terminate() }
        #expect(session.modes.mouseTracking == .normal)
        #expect(session.modes.mouseEncoding == .sgr)
        try session.click(text: item)
        try session.press(.enter)
        #expect(try await session.waitForExit() == .exited(0))
        return session.outputAfterCursor
    }

    @Test func clickingAnItemChoosesIt() async throws {
        let output = try await Self.choose("bean")
        #expect(output.hasSuffix("bean"), "dialog prints the chosen tag last")
    }

    @Test func clickingAnotherItemChoosesThatOne() async throws {
        // The check above is not satisfied by anything else dialog prints: another click, another tag.
        let output = try await Self.choose("carrot")
        #expect(output.hasSuffix("carrot"))
        #expect(!output.hasSuffix("bean"))
    }

    static func menuLaunch() -> AppLaunch {
        var launch = AppLaunch(executable: "dialog", arguments: [
            "--stdout", "--menu", "Pick a vegetable", "12", "40", "3",
            "apple", "A fruit", "bean", "A legume", "carrot", "A root",
        ])
        launch.environment = ["TERM": "xterm-256color", "LANG": "C.UTF-8"]
        launch.size = TerminalSize(cols: 60, rows: 16)
        launch.defaultTimeout = mustSucceedTimeout
        return launch
    }

    /// The same through `TerminalApp`'s forwarding methods.
    @Test func terminalAppClicksTheMenu() async throws {
        try await TerminalApp.with(Self.menuLaunch()) { app in
            try await app.waitFor(text: "carrot")
            try app.click(row: 6, col: 21)   // the first cell of "carrot"
            try app.press(.enter)
            #expect(try await app.waitForExit() == .exited(0))
            #expect(app.outputAfterCursor.hasSuffix("carrot"))
        }
    }

    /// The same as step actions.
    @Test func stepActionsClickTheMenu() async throws {
        try await TerminalApp.with(Self.menuLaunch()) { app in
            try await app.run(
                AppStep.expect(.text("carrot")),
                AppStep(.click(.text("bean"))),
                AppStep(.press(.enter), expect: .exit(.exited(0)))
            )
            #expect(app.outputAfterCursor.hasSuffix("bean"))
        }
    }
}
