import Foundation
import TestSupport
import Testing
import Harness
import TerminalEmulator

/// Mouse gestures on a real pseudo-terminal: a small program of our own enables the modes it
/// is given, then prints, in hex, every byte it received before each Ctrl-D.
@Suite struct MouseSessionTests {
    /// `python3 -c echoScript MODE...`: raw mode, DECSET of the modes, "ready", then
    /// `got HEX` for the bytes before each Ctrl-D (no mouse report contains 0x04).
    static let echoScript = #"""
        import os, sys, tty
        tty.setraw(0)
        modes = sys.argv[1:]
        if modes:
            os.write(1, ("\x1b[?" + ";".join(modes) + "h").encode())
        os.write(1, b"ready\r\n")
        received = b""
        while True:
            data = os.read(0, 4096)
            if not data:
                break
            for byte in data:
                if byte == 4:
                    os.write(1, b"got " + received.hex().encode() + b"\r\n")
                    received = b""
                elif byte == 3:
                    sys.exit(0)
                else:
                    received += bytes([byte])
        """#

    static func launchEcho(modes: [String], size: TerminalSize = TerminalSize(cols: 80, rows: 24)) async throws -> TerminalSession {
        let session = try TerminalSession.launch(.init(
            executable: "python3", arguments: ["-c", echoScript] + modes, environment: testEnvironment, size: size,
            defaultTimeout: mustSucceedTimeout))
        try await session.waitForOutput(text: "ready")
        return session
    }

    /// Sends Ctrl-D and returns the hex of what the program received since the last one.
    static func received(_ session: TerminalSession) async throws -> String {
        try session.send([0x04])
        let match = try await session.waitForOutput(regex: "got ([0-9a-f]*)\n")
        return match.groups.first.flatMap { $0 } ?? ""
    }

    static func hex(_ text: String) -> String { hex(Array(text.utf8)) }
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
    static func legacy(_ code: Int, _ column: Int, _ row: Int) -> String {
        hex([0x1b, 0x5b, 0x4d, UInt8(32 + code), UInt8(32 + column), UInt8(32 + row)])
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var modes: [String]
        var gesture: @Sendable (TerminalSession) throws -> Void
        var expected: String
        var size = TerminalSize(cols: 80, rows: 24)
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "click, SGR", modes: ["1000", "1006"], gesture: { try $0.click(row: 2, col: 4) },
             expected: hex("\u{1b}[<0;5;3M\u{1b}[<0;5;3m")),
        Case(name: "click, legacy", modes: ["1000"], gesture: { try $0.click(row: 2, col: 4) },
             expected: legacy(0, 5, 3) + legacy(3, 5, 3)),
        Case(name: "right click with ctrl, SGR", modes: ["1000", "1006"],
             gesture: { try $0.click(row: 0, col: 0, button: .right, modifiers: .ctrl) },
             expected: hex("\u{1b}[<18;1;1M\u{1b}[<18;1;1m")),
        Case(name: "click past column 95, UTF-8", modes: ["1000", "1005"], gesture: { try $0.click(row: 0, col: 99) },
             expected: hex([0x1b, 0x5b, 0x4d, 32, 0xC2, 0x84, 33, 0x1b, 0x5b, 0x4d, 35, 0xC2, 0x84, 33]),
             size: TerminalSize(cols: 120, rows: 24)),
        Case(name: "click, urxvt", modes: ["1000", "1015"], gesture: { try $0.click(row: 1, col: 1) },
             expected: hex("\u{1b}[32;2;2M\u{1b}[35;2;2M")),
        Case(name: "click, X10: the press only", modes: ["9"], gesture: { try $0.click(row: 1, col: 1) },
             expected: legacy(0, 2, 2)),
        Case(name: "double click, SGR", modes: ["1000", "1006"], gesture: { try $0.doubleClick(row: 3, col: 3) },
             expected: hex(String(repeating: "\u{1b}[<0;4;4M\u{1b}[<0;4;4m", count: 2))),
        Case(name: "drag, button-event, SGR", modes: ["1002", "1006"],
             gesture: { try $0.drag(from: .cell(row: 1, col: 0), to: .cell(row: 1, col: 5)) },
             expected: hex("\u{1b}[<0;1;2M\u{1b}[<32;6;2M\u{1b}[<0;6;2m")),
        Case(name: "drag, normal tracking: no motion", modes: ["1000", "1006"],
             gesture: { try $0.drag(from: .cell(row: 1, col: 0), to: .cell(row: 1, col: 5)) },
             expected: hex("\u{1b}[<0;1;2M\u{1b}[<0;6;2m")),
        Case(name: "wheel down twice, SGR", modes: ["1000", "1006"],
             gesture: { try $0.scroll(.down, count: 2, at: .cell(row: 0, col: 0)) },
             expected: hex("\u{1b}[<65;1;1M\u{1b}[<65;1;1M")),
        Case(name: "wheel up with shift, legacy", modes: ["1003"],
             gesture: { try $0.scroll(.up, at: .cell(row: 9, col: 9), modifiers: .shift) },
             expected: legacy(68, 10, 10)),
    ]

    @Test(.enabled(if: isInstalled("python3")), arguments: cases)
    func theProgramReceivesXtermsBytes(_ testCase: Case) async throws {
        let session = try await Self.launchEcho(modes: testCase.modes, size: testCase.size)
        defer { session.terminate() }
        try testCase.gesture(session)
        #expect(try await Self.received(session) == testCase.expected)
    }

    @Test(.enabled(if: isInstalled("python3")))
    func clickingTextPointsAtItsFirstCell() async throws {
        let session = try await Self.launchEcho(modes: ["1000", "1006"])
        defer { session.terminate() }
        // "ready" is on row 0 from column 0, so "ady" starts at column 2 (3 in the report).
        try session.click(text: "ady")
        #expect(try await Self.received(session) == Self.hex("\u{1b}[<0;3;1M\u{1b}[<0;3;1m"))
    }

    @Test(.enabled(if: isInstalled("python3")))
    func aProgramThatDidNotEnableTheMouseCannotBeClicked() async throws {
        let session = try await Self.launchEcho(modes: [])
        defer { session.terminate() }
        #expect(session.modes.mouseTracking == .off)
        let error = try #require(throws: MouseError.self) { try session.click(text: "ready") }
        guard case .reportingOff = error else { Issue.record("unexpected \(error)"); return }
        #expect(error.description.contains("the app did not enable mouse reporting; it cannot be clicked"))
        #expect(error.description.contains("│ready"), "the error shows the screen")
        #expect(throws: MouseError.self) { try session.scroll(.down, at: .cell(row: 0, col: 0)) }
        #expect(throws: MouseError.self) { try session.drag(from: .cell(row: 0, col: 0), to: .cell(row: 0, col: 1)) }
        #expect(try await Self.received(session) == "", "nothing at all was sent")
    }

    @Test(.enabled(if: isInstalled("python3")))
    func gesturesTheModeCannotCarrySendNothing() async throws {
        let session = try await Self.launchEcho(modes: ["9"], size: TerminalSize(cols: 300, rows: 10))
        defer { session.terminate() }
        #expect(session.modes.mouseTracking == .x10)
        #expect(throws: MouseError.notReported(gesture: "scroll down 1 at row 0, col 0", event: "wheel down", tracking: .x10)) {
            try session.scroll(.down, at: .cell(row: 0, col: 0))
        }
        #expect(throws: MouseError.self) { try session.drag(from: .cell(row: 0, col: 0), to: .cell(row: 0, col: 1)) }
        #expect(throws: MouseError.unencodable(position: ScreenPosition(row: 0, col: 223), encoding: .legacy, limit: 223)) {
            try session.click(row: 0, col: 223)
        }
        #expect(throws: MouseError.outsideScreen(position: ScreenPosition(row: 10, col: 0), cols: 300, rows: 10)) {
            try session.click(row: 10, col: 0)
        }
        // One modifiers type serves keys and the mouse; a mouse report has no Super.
        #expect(throws: MouseError.superNotReported(gesture: "click row 0, col 0")) {
            try session.click(row: 0, col: 0, modifiers: [.ctrl, .super])
        }
        let missing = try #require(throws: MouseError.self) { try session.click(text: "not on the screen") }
        #expect(missing.description.contains("Cannot find \"not on the screen\" on the screen"))
        #expect(missing.description.contains("│ready"))
        #expect(try await Self.received(session) == "", "nothing at all was sent")
        try session.click(row: 0, col: 222)  // the last column legacy bytes reach
        #expect(try await Self.received(session) == Self.legacy(0, 223, 1))
    }
}
