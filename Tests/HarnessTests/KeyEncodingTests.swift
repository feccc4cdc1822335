import Testing
import Harness
@testable import HarnessCore

@Suite struct KeyEncodingTests {
    static let esc: UInt8 = 0x1b

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// (key, application cursor keys, expected bytes).
    static let table: [(Key, Bool, [UInt8])] = [
        (.enter, false, [0x0d]),
        (.tab, false, [0x09]),
        (.backTab, false, bytes("\u{1b}[Z")),
        (.backspace, false, [0x7f]),
        (.escape, false, [0x1b]),
        (.up, false, bytes("\u{1b}[A")),
        (.down, false, bytes("\u{1b}[B")),
        (.right, false, bytes("\u{1b}[C")),
        (.left, false, bytes("\u{1b}[D")),
        (.home, false, bytes("\u{1b}[H")),
        (.end, false, bytes("\u{1b}[F")),
        (.up, true, bytes("\u{1b}OA")),
        (.down, true, bytes("\u{1b}OB")),
        (.right, true, bytes("\u{1b}OC")),
        (.left, true, bytes("\u{1b}OD")),
        (.home, true, bytes("\u{1b}OH")),
        (.end, true, bytes("\u{1b}OF")),
        (.insert, false, bytes("\u{1b}[2~")),
        (.delete, false, bytes("\u{1b}[3~")),
        (.pageUp, false, bytes("\u{1b}[5~")),
        (.pageDown, false, bytes("\u{1b}[6~")),
        (.pageUp, true, bytes("\u{1b}[5~")),
        (.f(1), false, bytes("\u{1b}OP")),
        (.f(2), false, bytes("\u{1b}OQ")),
        (.f(3), false, bytes("\u{1b}OR")),
        (.f(4), false, bytes("\u{1b}OS")),
        (.f(5), false, bytes("\u{1b}[15~")),
        (.f(6), false, bytes("\u{1b}[17~")),
        (.f(7), false, bytes("\u{1b}[18~")),
        (.f(8), false, bytes("\u{1b}[19~")),
        (.f(9), false, bytes("\u{1b}[20~")),
        (.f(10), false, bytes("\u{1b}[21~")),
        (.f(11), false, bytes("\u{1b}[23~")),
        (.f(12), false, bytes("\u{1b}[24~")),
        (.ctrl("a"), false, [0x01]),
        (.ctrl("c"), false, [0x03]),
        (.ctrl("z"), false, [0x1a]),
        (.ctrl("C"), false, [0x03]),
        (.ctrl("@"), false, [0x00]),
        (.ctrl(" "), false, [0x00]),
        (.ctrl("["), false, [0x1b]),
        (.ctrl("\\"), false, [0x1c]),
        (.ctrl("]"), false, [0x1d]),
        (.ctrl("^"), false, [0x1e]),
        (.ctrl("_"), false, [0x1f]),
        (.ctrl("?"), false, [0x7f]),
        (.character("x"), false, [0x78]),
        (.character("é"), false, [0xc3, 0xa9]),
        (.character("世"), false, [0xe4, 0xb8, 0x96]),
        (.alt(.character("x")), false, bytes("\u{1b}x")),
        (.alt(.ctrl("c")), false, [0x1b, 0x03]),
        (.alt(.enter), false, [0x1b, 0x0d]),
        (.alt(.backspace), false, [0x1b, 0x7f]),
        (.alt(.up), false, bytes("\u{1b}[1;3A")),
        (.alt(.up), true, bytes("\u{1b}[1;3A")),
        (.alt(.end), false, bytes("\u{1b}[1;3F")),
        (.alt(.delete), false, bytes("\u{1b}[3;3~")),
        (.alt(.f(1)), false, bytes("\u{1b}[1;3P")),
        (.alt(.f(5)), false, bytes("\u{1b}[15;3~")),
        (.alt(.alt(.character("q"))), false, bytes("\u{1b}q")),
    ]

    @Test(arguments: 0..<table.count)
    func encodesLikeXterm(_ index: Int) throws {
        let (key, applicationCursorKeys, expected) = Self.table[index]
        #expect(try key.encoded(applicationCursorKeys: applicationCursorKeys) == expected, "\(key) app=\(applicationCursorKeys)")
    }

    @Test(arguments: [0, 13, -1])
    func rejectsFunctionKeysOutsideF1ToF12(_ number: Int) {
        #expect(throws: KeyError.unsupportedFunctionKey(number)) { try Key.f(number).encoded() }
    }

    @Test(arguments: ["1", "é", "!"] as [Character])
    func rejectsControlWithoutAControlCode(_ character: Character) {
        #expect(throws: KeyError.unsupportedControlCharacter(character)) { try Key.ctrl(character).encoded() }
    }

    @Test func pasteWrapsInMarkersOnlyWhenBracketed() {
        #expect(TerminalSession.pasteBytes("a\nb", bracketed: false) == Array("a\rb".utf8))
        #expect(TerminalSession.pasteBytes("a\r\nb", bracketed: true) == Array("\u{1b}[200~a\rb\u{1b}[201~".utf8))
        // An end marker inside the text cannot end the paste early.
        #expect(TerminalSession.pasteBytes("x\u{1b}[201~y", bracketed: true) == Array("\u{1b}[200~xy\u{1b}[201~".utf8))
    }
}

@Suite struct KeyParsingTests {
    static let names: [(String, Key)] = [
        ("enter", .enter), ("Return", .enter), ("tab", .tab), ("shift-tab", .backTab), ("backtab", .backTab),
        ("backspace", .backspace), ("bs", .backspace), ("esc", .escape), ("ESCAPE", .escape),
        ("up", .up), ("down", .down), ("left", .left), ("right", .right), ("home", .home), ("end", .end),
        ("pgup", .pageUp), ("pageup", .pageUp), ("pgdn", .pageDown), ("pagedown", .pageDown),
        ("ins", .insert), ("insert", .insert), ("del", .delete), ("delete", .delete),
        ("f1", .f(1)), ("F12", .f(12)), ("space", .character(" ")),
        ("ctrl-c", .ctrl("c")), ("Ctrl-C", .ctrl("c")), ("c-x", .ctrl("x")), ("^d", .ctrl("d")), ("ctrl-[", .ctrl("[")),
        ("alt-x", .alt(.character("x"))), ("meta-x", .alt(.character("x"))), ("m-X", .alt(.character("X"))),
        ("alt-enter", .alt(.enter)), ("alt-up", .alt(.up)), ("alt-ctrl-c", .alt(.ctrl("c"))), ("ctrl-alt-c", .alt(.ctrl("c"))),
        ("x", .character("x")), ("Q", .character("Q")), ("世", .character("世")), ("-", .character("-")),
    ]

    @Test(arguments: 0..<names.count)
    func parsesNames(_ index: Int) throws {
        let (name, key) = Self.names[index]
        #expect(try Key(parsing: name) == key, "\(name)")
    }

    @Test(arguments: ["", "f13", "f0", "ctrl-", "hyper-x", "enterr", "alt-nothing", "shift-", "super-nothing",
                      "release:", "release:release:a", "ctrl-release:a"])
    func rejectsUnknownNames(_ name: String) {
        #expect(throws: KeyError.unknownKeyName(name)) { try Key(parsing: name) }
    }
}
