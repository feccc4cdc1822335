import Foundation
import TestSupport
import Testing
import Harness
import TerminalEmulator

/// Keys, focus changes, hovering and pixel clicks on a real pseudo-terminal: a small program of
/// our own writes the sequences it is given (a kitty keyboard push, DECSET of focus or mouse
/// modes), prints "ready" once they are written, then prints, in hex, every byte it received
/// before each `CSI 9999 ~`, a marker no key or report sends. Event driven: every wait is for
/// a line the program prints.
@Suite struct KeyboardSessionTests {
    static let echoScript = #"""
        import os, sys, tty
        tty.setraw(0)
        os.write(1, "".join(sys.argv[1:]).encode().decode("unicode_escape").encode())
        os.write(1, b"ready\r\n")
        marker = b"\x1b[9999~"
        received = b""
        while True:
            data = os.read(0, 4096)
            if not data:
                break
            received += data
            while marker in received:
                head, received = received.split(marker, 1)
                os.write(1, b"got " + head.hex().encode() + b"\r\n")
        """#

    /// Launches the program; `setup` is what it writes first (escapes as `\\x1b`).
    static func launch(_ setup: String) async throws -> TerminalSession {
        let session = try TerminalSession.launch(.init(
            executable: "python3", arguments: ["-c", echoScript, setup], environment: testEnvironment,
            defaultTimeout: mustSucceedTimeout))
        try await session.waitForOutput(text: "ready")
        return session
    }

    /// What the program received since the last marker, in hex.
    static func received(_ session: TerminalSession) async throws -> String {
        try session.send(Array("\u{1b}[9999~".utf8))
        let match = try await session.waitForOutput(regex: "got ([0-9a-f]*)\n")
        return match.groups.first.flatMap { $0 } ?? ""
    }

    static func hex(_ text: String) -> String { Array(text.utf8).map { String(format: "%02x", $0) }.joined() }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var setup: String
        var input: @Sendable (TerminalSession) throws -> Void
        var expected: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "legacy modifiers", setup: "", input: { try $0.press(.shift(.down), .ctrl(.left), .ctrl(.shift(.f(5))), .alt(.enter)) },
             expected: hex("\u{1b}[1;2B\u{1b}[1;5D\u{1b}[15;6~\u{1b}\r")),
        Case(name: "kitty disambiguate", setup: "\\x1b[>1u",
             input: { try $0.press(.escape, .ctrl(.enter), .alt(.character("x")), .character("a"), .shift(.down)) },
             expected: hex("\u{1b}[27u\u{1b}[13;5u\u{1b}[120;3ua\u{1b}[1;2B")),
        Case(name: "kitty all keys with text: type", setup: "\\x1b[>25u", input: { try $0.type("aA\r") },
             expected: hex("\u{1b}[97;;97u\u{1b}[97;2;65u\u{1b}[13u")),
        Case(name: "kitty event types: a release", setup: "\\x1b[>3u",
             input: { try $0.press(.character("a"), .release(.character("a"))) }, expected: hex("a\u{1b}[97;1:3u")),
        Case(name: "kitty pop: legacy again", setup: "\\x1b[>1u\\x1b[<u", input: { try $0.press(.escape) },
             expected: hex("\u{1b}")),
        Case(name: "kitty stack per screen", setup: "\\x1b[>1u\\x1b[?1049h", input: { try $0.press(.ctrl(.character("c"))) },
             expected: hex("\u{03}")),
        Case(name: "focus", setup: "\\x1b[?1004h", input: { try $0.focus(.out); try $0.focus(.in) },
             expected: hex("\u{1b}[O\u{1b}[I")),
        Case(name: "hover, any-event, SGR", setup: "\\x1b[?1003;1006h", input: { try $0.hover(.text("ady")) },
             expected: hex("\u{1b}[<35;3;1M")),
        Case(name: "click, SGR-Pixels", setup: "\\x1b[?1000;1006;1016h", input: { try $0.click(.text("ady")) },
             expected: hex("\u{1b}[<0;26;11M\u{1b}[<0;26;11m")),
    ]

    @Test(.enabled(if: isInstalled("python3")), arguments: cases)
    func theProgramReceivesTheBytes(_ testCase: Case) async throws {
        let session = try await Self.launch(testCase.setup)
        defer { session.terminate() }
        try testCase.input(session)
        #expect(try await Self.received(session) == testCase.expected)
    }

    @Test(.enabled(if: isInstalled("python3")))
    func whatTheModesCannotCarryIsRefusedAndNothingIsSent() async throws {
        let session = try await Self.launch("\\x1b[?1002;1006h")
        defer { session.terminate() }
        #expect(throws: FocusError.reportingOff(.in)) { try session.focus(.in) }
        let hover = try #require(throws: MouseError.self) { try session.hover(.cell(row: 0, col: 0)) }
        #expect(hover.summary.contains("only any-event mode (1003) reports motion"))
        let key = try #require(throws: KeyError.self) { try session.press(.character("x"), .ctrl(.enter)) }
        #expect("\(key)".contains("Cannot press ctrl-enter"))
        #expect(throws: KeyError.self) { try session.press(.release(.character("a"))) }
        #expect(try await Self.received(session) == "", "nothing at all was sent")
    }

    @Test(.enabled(if: isInstalled("python3")))
    func theQueryIsAnsweredAndThePtyKnowsThePixels() async throws {
        let script = #"""
            import fcntl, os, struct, termios, tty
            tty.setraw(0)
            rows, cols, xpixel, ypixel = struct.unpack("HHHH", fcntl.ioctl(0, termios.TIOCGWINSZ, b"\0" * 8))
            os.write(1, b"\x1b[>9u\x1b[?u\x1b[16t")
            answer = b""
            while not answer.endswith(b"t"):
                answer += os.read(0, 100)
            os.write(1, ("size %d %d %d %d answer %s\r\n" % (cols, rows, xpixel, ypixel, answer.hex())).encode())
            os.read(0, 1)
            """#
        let session = try TerminalSession.launch(.init(
            executable: "python3", arguments: ["-c", script], environment: testEnvironment,
            size: TerminalSize(cols: 30, rows: 5), defaultTimeout: mustSucceedTimeout))
        defer { session.terminate() }
        try await session.waitForOutput(text: "size 30 5 300 100 answer " + Self.hex("\u{1b}[?9u\u{1b}[6;20;10t"))
        #expect(session.modes.kittyKeyboard.rawValue == 9)
    }
}
