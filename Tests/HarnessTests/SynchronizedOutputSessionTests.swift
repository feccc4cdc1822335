import Foundation
import TestSupport
import Testing
import Harness
@testable import HarnessCore
import TerminalEmulator

/// Synchronized output (mode 2026) through a real terminal: a program draws a frame in pieces,
/// stopping in the middle until the test tells it to go on (a line on its input, never the
/// clock), and no wait, snapshot or locator sees the half-drawn frame.
@Suite struct SynchronizedOutputSessionTests {
    /// Draws "old frame", turns the mouse on, then a frame of three lines inside mode 2026 in
    /// three pieces, each after a line of input; the fourth line ends the program.
    static let program = """
        stty -echo
        printf 'old frame\\r\\n\\033[?1000h\\033[?1006h'
        printf '\\033[?2026h\\033[H\\033[2JTitle: new\\r\\n'
        read a
        printf 'Items: 3\\r\\n'
        read b
        printf 'Status: ready\\033[?2026l'
        read c
        """

    /// A configuration whose safety limit never fires during the test.
    static func configuration(_ script: String, limit: Duration = .seconds(600)) -> TerminalSession.Configuration {
        var configuration = shell(script, size: TerminalSize(cols: 30, rows: 5))
        configuration.synchronizedOutputLimit = limit
        return configuration
    }

    static let oldFrame = ["old frame", "", "", "", ""]
    static let newFrame = ["Title: new", "Items: 3", "Status: ready", "", ""]

    @Test func noWaitSnapshotOrLocatorSeesAHalfFrame() async throws {
        let session = try TerminalSession.launch(Self.configuration(Self.program))
        defer { session.terminate() }
        // Registered before the frame starts; it may only ever see a complete frame.
        let titleWait = Task { try await session.waitFor(text: "Title: new") }

        // The printed stream is not held: it says when each piece was read.
        try await session.waitForOutput(text: "Title: new")
        #expect(session.screen.lines == Self.oldFrame)
        #expect(throws: MouseError.self) { try session.click(text: "Title: new") }
        try session.click(text: "frame")
        #expect(Self.lastInput(session) == "\u{1B}[<0;5;1M\u{1B}[<0;5;1m")
        try session.type("go\r")
        try await session.waitForOutput(text: "Items: 3")
        #expect(session.screen.lines == Self.oldFrame)
        #expect(throws: MouseError.self) { try session.click(text: "Items") }
        // A quiet program inside its frame: the stable screen is still the complete old one.
        #expect(try await session.waitUntilStable(quietFor: .milliseconds(20)).lines == Self.oldFrame)
        try session.type("go\r")

        // The wait resolves with the whole new frame, never with a part of it.
        #expect(try await titleWait.value.lines == Self.newFrame)
        #expect(session.screen.lines == Self.newFrame)
        try session.click(text: "ready")
        #expect(Self.lastInput(session) == "\u{1B}[<0;9;3M\u{1B}[<0;9;3m")
        #expect(session.notices.isEmpty)
    }

    @Test func theSafetyLimitReleasesAStalledFrameAndSaysSo() async throws {
        // The program stops inside its frame for good: only the limit shows what it drew.
        let session = try TerminalSession.launch(Self.configuration(
            "stty -echo; printf 'old\\r\\n\\033[?2026h\\033[2J\\033[Hhalf'; read x", limit: .milliseconds(1)))
        defer { session.terminate() }
        try await session.waitFor(text: "half")
        let notices = session.notices
        #expect(notices.count == 1)
        #expect(notices.first?.text == "synchronized frame 1 released by the 1 ms limit (the program did not reset mode 2026)")
    }

    @Test func aFrameOpenAtTheExitIsShownAndNoted() async throws {
        let session = try TerminalSession.launch(Self.configuration("printf 'old\\r\\n\\033[?2026hlast words'"))
        defer { session.terminate() }
        #expect(try await session.waitForExit() == .exited(0))
        #expect(session.screen.line(1) == "last words")
        #expect(session.notices.map(\.text) == [
            "synchronized frame 1 released at the program's exit (the program did not reset mode 2026)"])
    }

    @Test func aResizeShowsTheUpdate() async throws {
        let session = try TerminalSession.launch(Self.configuration("stty -echo; printf '\\033[?2026hdrawn'; read x"))
        defer { session.terminate() }
        try await session.waitForOutput(text: "drawn")
        #expect(session.screen.line(0) == "")
        try await session.resize(cols: 40, rows: 6)
        #expect(session.screen.line(0) == "drawn")
        #expect(session.notices.map(\.text) == [
            "synchronized frame 1 released by a resize (the program did not reset mode 2026)"])
    }

    @Test func theSessionAnswersDECRQMAndColourQueries() async throws {
        // The program asks, then reads the 36 bytes of the answers.
        let session = try TerminalSession.launch(Self.configuration("""
            stty -echo raw; printf '\\033[?2026$p\\033]11;?\\033\\\\'; dd bs=1 count=36 of=/dev/null 2>/dev/null
            """))
        defer { session.terminate() }
        try await session.waitForExit()
        let answers = session.recording.events.filter { $0.kind == .input }.flatMap(\.bytes)
        #expect(String(decoding: answers, as: UTF8.self) == "\u{1B}[?2026;2$y\u{1B}]11;rgb:1010/1010/1010\u{1B}\\")
    }

    /// The last bytes sent to the program, as text.
    static func lastInput(_ session: TerminalSession) -> String {
        String(decoding: session.recording.events.last { $0.kind == .input }?.bytes ?? [], as: UTF8.self)
    }
}
