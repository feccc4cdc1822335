import Foundation
import TestSupport
import Testing
import HarnessSystem
import Harness
@testable import HarnessCore
import TerminalEmulator

/// Waits for styled text and for text inside an area, on real programs in a PTY (`printf`
/// under /bin/sh), each with a screen that breaks it.
@Suite(.serialized) struct StyledWaitingTests {
    static let boldRed = TextStyle(bold: true, foreground: .named(.red))

    /// A program that shows a status row, then waits for input before printing `styled` on row 2
    /// (so the wait is registered before the text appears), then a footer, and waits again.
    static func program(_ styled: String) -> TerminalSession.Configuration {
        shell("stty -echo; printf 'Todos 12:00\\r\\n'; read x; printf 'list\\r\\n\(styled)\\r\\nq quit'; read y")
    }

    @Test func waitsForTextWithItsStyle() async throws {
        let session = try TerminalSession.launch(Self.program("\\033[1;31mOops\\033[0m"))
        defer { session.terminate() }
        try await session.waitFor(text: "Todos")
        async let waited = session.waitFor(text: "Oops", style: Self.boldRed)
        try session.type("go\r")
        let screen = try await waited
        #expect(screen.locate("Oops").first?.style.isBold == true)
        #expect(screen.locate("Oops").first?.position == ScreenPosition(row: 2, col: 0))
        try await session.waitFor(regex: "O.ps", style: .foreground(.palette(1)))
        try await session.waitFor(text: "list", style: .plain)
    }

    @Test(arguments: [
        ("\\033[1;32mOops\\033[0m", "fg: expected red, found green"),
        ("\\033[31mOops\\033[0m", "bold: expected on, found off"),
        ("\\033[1;31mO\\033[0mops", "its cell \"o\" at col 1 differs: bold: expected on, found off, fg: expected red, found default"),
    ])
    func aWrongStyleTimesOutSayingWhatWasFound(styled: String, difference: String) async throws {
        let session = try TerminalSession.launch(Self.program(styled))
        defer { session.terminate() }
        try await session.waitFor(text: "Todos")   // echo is off: typing cannot move the rows
        try session.type("go\r")
        try await session.waitFor(text: "q quit")   // the screen is drawn: the styled wait can only fail
        let error = await caughtError {
            try await session.waitFor(text: "Oops", style: Self.boldRed, timeout: .milliseconds(200))
        }
        guard case TerminalSessionError.timeout(let failure)? = error else {
            Issue.record("expected a timeout, got \(String(describing: error))")
            return
        }
        #expect(failure.awaited == "text \"Oops\" styled bold fg=red")
        let nearMiss = failure.nearMiss ?? ""
        #expect(nearMiss.hasPrefix("instead the screen shows it, but not styled bold fg=red"))
        #expect(nearMiss.contains("\"Oops\" at row 2, col 0 has style "))
        #expect(nearMiss.contains(difference))
        #expect(failure.location?.line == 45)
        #expect("\(error!)".contains("│Oops"))
    }

    @Test func waitsForTextInsideAnArea() async throws {
        let session = try TerminalSession.launch(Self.program("Oops"))
        defer { session.terminate() }
        try await session.waitFor(text: "Todos")
        async let waited = session.waitFor(text: "Oops", in: .rows(between: "list", and: "q quit", inclusive: false))
        try session.type("go\r")
        let screen = try await waited
        #expect(screen.line(2) == "Oops")
        try await session.waitFor(text: "Oops", in: .rows(1...3), style: .plain)
    }

    @Test func textOutsideTheAreaTimesOut() async throws {
        let session = try TerminalSession.launch(Self.program("Oops"))
        defer { session.terminate() }
        try await session.waitFor(text: "Todos")   // echo is off: typing cannot move the rows
        try session.type("go\r")
        try await session.waitFor(text: "q quit")
        let outside = await caughtError {
            try await session.waitFor(text: "12:00", in: .rows(1...3), timeout: .milliseconds(200))
        }
        #expect("\(outside!)".contains(
            "waiting for text \"12:00\" in rows 1-3; instead the text \"12:00\" is only outside rows 1-3: \"12:00\" at row 0, col 6"))
        let noArea = await caughtError {
            try await session.waitFor(text: "Oops", in: .rows(between: "list", and: "absent"), timeout: .milliseconds(200))
        }
        #expect("\(noArea!)".contains("instead the screen has no rows between \"list\" and \"absent\""))
        let exclusive = await caughtError {
            try await session.waitFor(text: "list", in: .rows(between: "list", and: "q quit", inclusive: false), timeout: .milliseconds(200))
        }
        #expect("\(exclusive!)".contains("is only outside rows between \"list\" and \"q quit\" exclusive"))
    }

    @Test func theAppForwardsStyledWaits() async throws {
        var launch = AppLaunch(executable: "/bin/sh", arguments: ["-c", "printf '\\033[4mlink\\033[0m'; read x"])
        launch.environment = testEnvironment
        try await TerminalApp.with(launch) { app in
            try await app.waitFor(text: "link", style: .underline)
            try await app.waitFor(text: "link", in: .rows(0...0))
            try await app.waitFor(regex: "l.nk", in: .rows(0...0), style: .underline)
            try await app.waitFor(regex: "l.nk", in: .rows(0...0))
            let error = await caughtError { try await app.waitFor(text: "link", style: .bold, timeout: .milliseconds(100)) }
            #expect("\(error!)".contains("bold: expected on, found off"))
        }
    }

    @Test func textOnSeveralRowsIsRefused() async throws {
        let session = try TerminalSession.launch(shell("read x"))
        defer { session.terminate() }
        let error = await caughtError { try await session.waitFor(text: "a\nb", style: .bold) }
        guard case TerminalSessionError.invalidConfiguration? = error else {
            Issue.record("expected invalidConfiguration, got \(String(describing: error))")
            return
        }
    }

    // MARK: - verifyStyle and assertStyle

    static let screen: ScreenSnapshot = {
        let terminal = Terminal(cols: 20, rows: 3)
        terminal.feed("Todos\r\n\u{1B}[31mOops\u{1B}[0m and \u{1B}[1;31mOops\u{1B}[0m\r\nq quit")
        return terminal.snapshot()
    }()

    @Test func verifyStylePassesWhenOneOccurrenceHasTheStyle() throws {
        #expect(verifyStyle(of: "Oops", on: Self.screen, style: Self.boldRed) == nil)
        #expect(try verifyStyle(ofRegex: "O.ps", on: Self.screen, style: Self.boldRed) == nil)
        #expect(verifyStyle(of: "Todos", on: Self.screen, in: .rows(0...0), style: .plain) == nil)
    }

    @Test func verifyStyleNamesTextPositionExpectedAndActualStyle() throws {
        let message = try #require(verifyStyle(of: "Oops", on: Self.screen, style: TextStyle(italic: true)))
        #expect(message.hasPrefix("""
            "Oops" is not styled italic: the screen shows it, but not styled italic
              "Oops" at row 1, col 0 has style fg=red; its cell "O" at col 0 differs: italic: expected on, found off
              "Oops" at row 1, col 9 has style fg=red bold; its cell "O" at col 9 differs: italic: expected on, found off
            ┌────────────────────┐
            │Todos               │
            """))
        let missing = try #require(verifyStyle(of: "Nope", on: Self.screen, style: .bold))
        #expect(missing.hasPrefix("\"Nope\" is not styled bold: the screen does not show the text \"Nope\"\n┌"))
        let outside = try #require(verifyStyle(of: "Oops", on: Self.screen, in: .rows(2...2), style: .bold))
        #expect(outside.hasPrefix("\"Oops\" in rows 2-2 is not styled bold: the text \"Oops\" is only outside rows 2-2: "))
        #expect(throws: TerminalSessionError.self) { try verifyStyle(ofRegex: "(", on: Self.screen, style: .bold) }
    }

    @Test func assertStyleReportsAtTheCallersLine() {
        let failures = Locked<[(String, UInt)]>([])
        FailureReporter.withFailureHandler({ message, location in failures.withLock { $0.append((message, location.line)) } }) {
            assertStyle(of: "Oops", on: Self.screen, style: Self.boldRed)
            assertStyle(of: "Oops", on: Self.screen, style: .foreground(.named(.blue)))
        }
        let reported = failures.withLock { $0 }
        #expect(reported.count == 1)
        #expect(reported.first?.0.contains("fg: expected blue, found red") == true)
        #expect(reported.first?.1 == 149)
    }
}
