import Testing
import TerminalEmulator
@testable import HarnessCore

/// Keys with modifiers: xterm's legacy bytes (ctlseqs, "PC-Style Function Keys": the modifier
/// parameter is 1 + shift 1 + alt 2 + ctrl 4) and the kitty keyboard protocol's escape codes
/// for each set of flags (https://sw.kovidgoyal.net/kitty/keyboard-protocol/).
@Suite struct KeyModifierEncodingTests {
    static let esc = "\u{1b}"
    static let csi = "\u{1b}["

    static func key(_ name: String) -> Key { try! Key(parsing: name) }

    /// (key name, application cursor keys, xterm's bytes).
    static let legacy: [(String, Bool, String)] = [
        ("shift-up", false, "\(csi)1;2A"), ("shift-down", true, "\(csi)1;2B"), ("ctrl-left", false, "\(csi)1;5D"),
        ("ctrl-right", false, "\(csi)1;5C"), ("alt-shift-up", false, "\(csi)1;4A"), ("ctrl-alt-shift-home", false, "\(csi)1;8H"),
        ("ctrl-end", false, "\(csi)1;5F"), ("shift-f1", false, "\(csi)1;2P"), ("ctrl-f3", false, "\(csi)1;5R"),
        ("alt-f4", false, "\(csi)1;3S"), ("ctrl-shift-f5", false, "\(csi)15;6~"), ("shift-f12", false, "\(csi)24;2~"),
        ("alt-shift-pgdn", false, "\(csi)6;4~"), ("ctrl-delete", false, "\(csi)3;5~"), ("shift-insert", false, "\(csi)2;2~"),
        ("shift-tab", false, "\(csi)Z"), ("alt-shift-tab", false, "\(esc)\(csi)Z"), ("alt-tab", false, "\(esc)\t"),
        ("alt-enter", false, "\(esc)\r"), ("alt-esc", false, "\(esc)\(esc)"), ("alt-backspace", false, "\(esc)\u{7f}"),
        ("ctrl-backspace", false, "\u{08}"), ("shift-a", false, "A"), ("shift-1", false, "!"), ("shift-/", false, "?"),
        ("alt-shift-a", false, "\(esc)A"), ("ctrl-alt-x", false, "\(esc)\u{18}"), ("ctrl-space", false, "\u{0}"),
        ("alt-space", false, "\(esc) "), ("A", false, "A"), ("shift-A", false, "A"), ("ctrl-A", false, "\u{1}"),
    ]

    @Test(arguments: 0..<legacy.count)
    func legacyBytesAreXterms(_ index: Int) throws {
        let (name, applicationCursorKeys, expected) = Self.legacy[index]
        let bytes = try Self.key(name).encoded(applicationCursorKeys: applicationCursorKeys)
        #expect(bytes == Array(expected.utf8), "\(name)")
    }

    /// Combinations xterm's bytes cannot tell apart from another key, or cannot express.
    @Test(arguments: ["ctrl-enter", "shift-enter", "ctrl-shift-a", "ctrl-tab", "shift-space", "shift-esc", "super-x",
                      "super-up", "ctrl-shift-tab", "shift-backspace"])
    func legacyRefusesWhatItCannotExpress(_ name: String) {
        #expect {
            try Self.key(name).encoded()
        } throws: { error in
            guard case KeyError.notInLegacyEncoding(let key, let reason) = error else { return false }
            return key == Self.key(name).name && !reason.isEmpty
        }
    }

    @Test func aReleaseNeedsKittyFlag2() throws {
        #expect(throws: KeyError.releaseNotReported(key: "a", flags: [], reason: "the program did not ask for key release events (kitty keyboard flag 2)")) {
            try Key.release(.character("a")).encoded()
        }
        #expect(throws: KeyError.self) { try Key.release(.character("a")).encoded(kittyFlags: .disambiguate) }
        let message = "\(KeyError.notInLegacyEncoding(key: "ctrl-enter", reason: "xterm sends the same byte for ctrl-enter as for enter"))"
        #expect(message.contains("Cannot press ctrl-enter") && message.contains("kitty keyboard protocol") && message.contains("nothing was sent"))
    }

    /// (flags, key name, the kitty protocol's bytes).
    static let kitty: [(Int, String, String)] = [
        // 1: disambiguate
        (1, "esc", "\(csi)27u"), (1, "alt-esc", "\(csi)27;3u"), (1, "ctrl-c", "\(csi)99;5u"), (1, "alt-x", "\(csi)120;3u"),
        (1, "ctrl-shift-a", "\(csi)97;6u"), (1, "super-x", "\(csi)120;9u"), (1, "ctrl-i", "\(csi)105;5u"),
        (1, "ctrl-space", "\(csi)32;5u"), (1, "ctrl-1", "\(csi)49;5u"), (1, "alt-enter", "\(csi)13;3u"),
        (1, "ctrl-enter", "\(csi)13;5u"), (1, "shift-enter", "\(csi)13;2u"), (1, "shift-tab", "\(csi)9;2u"),
        (1, "ctrl-backspace", "\(csi)127;5u"), (1, "enter", "\r"), (1, "tab", "\t"), (1, "backspace", "\u{7f}"),
        (1, "a", "a"), (1, "A", "A"), (1, "shift-a", "A"), (1, "!", "!"), (1, "space", " "), (1, "é", "é"),
        (1, "up", "\(csi)A"), (1, "shift-down", "\(csi)1;2B"), (1, "ctrl-left", "\(csi)1;5D"), (1, "super-up", "\(csi)1;9A"),
        (1, "home", "\(csi)H"), (1, "f1", "\(csi)P"), (1, "f2", "\(csi)Q"), (1, "f3", "\(csi)13~"), (1, "f4", "\(csi)S"),
        (1, "shift-f1", "\(csi)1;2P"), (1, "ctrl-f3", "\(csi)13;5~"), (1, "ctrl-shift-f5", "\(csi)15;6~"), (1, "f12", "\(csi)24~"),
        (1, "pgup", "\(csi)5~"), (1, "alt-delete", "\(csi)3;3~"),
        // 2: event types (with 1)
        (3, "a", "a"), (3, "release:a", "\(csi)97;1:3u"), (3, "release:ctrl-a", "\(csi)97;5:3u"), (3, "release:A", "\(csi)97;2:3u"),
        (3, "release:up", "\(csi)1;1:3A"), (3, "release:shift-up", "\(csi)1;2:3A"), (3, "release:f5", "\(csi)15;1:3~"),
        (3, "release:esc", "\(csi)27;1:3u"), (3, "esc", "\(csi)27u"),
        // 2 alone: presses stay xterm's, releases are escape codes
        (2, "a", "a"), (2, "up", "\(csi)A"), (2, "release:a", "\(csi)97;1:3u"),
        // 4: alternate keys (with 1)
        (5, "ctrl-shift-a", "\(csi)97:65;6u"), (5, "shift-a", "A"), (5, "ctrl-a", "\(csi)97;5u"), (5, "alt-!", "\(csi)49:33;4u"),
        // 8: all keys as escape codes (with 1)
        (9, "a", "\(csi)97u"), (9, "A", "\(csi)97;2u"), (9, "!", "\(csi)49;2u"), (9, "enter", "\(csi)13u"), (9, "tab", "\(csi)9u"),
        (9, "backspace", "\(csi)127u"), (9, "space", "\(csi)32u"), (9, "é", "\(csi)233u"), (9, "É", "\(csi)233;2u"),
        (13, "A", "\(csi)97:65;2u"),
        // 16: associated text (with 8)
        (25, "a", "\(csi)97;;97u"), (25, "A", "\(csi)97;2;65u"), (25, "ctrl-a", "\(csi)97;5u"), (25, "enter", "\(csi)13u"),
        (25, "世", "\(csi)19990;;19990u"), (31, "A", "\(csi)97:65;2;65u"), (31, "release:a", "\(csi)97;1:3u"),
        (27, "release:enter", "\(csi)13;1:3u"),
        // A character of several code points is typed as text.
        (9, "👍🏽", "👍🏽"),
    ]

    @Test(arguments: 0..<kitty.count)
    func kittyBytesFollowTheSpec(_ index: Int) throws {
        let (flags, name, expected) = Self.kitty[index]
        let bytes = try Self.key(name).encoded(kittyFlags: KittyKeyboardFlags(rawValue: flags))
        #expect(String(decoding: bytes, as: UTF8.self) == expected, "flags \(flags) \(name)")
    }

    @Test func kittyCursorKeysIgnoreApplicationCursorMode() throws {
        #expect(try Key.up.encoded(applicationCursorKeys: true, kittyFlags: .disambiguate) == Array("\(Self.csi)A".utf8))
    }

    @Test func kittyReleasesOfEnterTabAndBackspaceNeedFlag8() {
        for name in ["release:enter", "release:tab", "release:backspace"] {
            #expect(throws: KeyError.self, "\(name)") { try Self.key(name).encoded(kittyFlags: [.disambiguate, .reportEventTypes]) }
        }
        #expect(throws: KeyError.notOneKey("👍🏽")) { try Key.ctrl(.character("👍🏽")).encoded(kittyFlags: .disambiguate) }
    }

    // MARK: - Every key name with every modifier combination

    static let plainNames = ["enter", "tab", "backspace", "esc", "space", "up", "down", "left", "right", "home", "end",
                             "pgup", "pgdn", "insert", "delete", "a", "z", "5", "-", "/", "é"] + (1...12).map { "f\($0)" }
    static let prefixes: [String] = (0..<16).map { bits in
        KeyModifiers.named.filter { KeyModifiers(rawValue: bits).contains($0.0) }.map { $0.1 + "-" }.joined()
    }

    @Test(arguments: plainNames)
    func everyCombinationParsesBackAndEncodes(_ plain: String) throws {
        for prefix in Self.prefixes {
            let name = prefix + plain
            let key = try Key(parsing: name)
            #expect(try Key(parsing: key.name) == key, "\(name) -> \(key.name)")
            #expect(try Key(parsing: "release:" + name) == .release(key))
            // The kitty protocol sends every combination; xterm's bytes send it or say why not.
            #expect(throws: Never.self, "\(name)") { try key.encoded(kittyFlags: .disambiguate) }
            do {
                _ = try key.encoded()
            } catch KeyError.notInLegacyEncoding, KeyError.unsupportedControlCharacter {
                // a clear refusal
            }
        }
    }

    @Test func spellingsOfOneKeyAreEqual() throws {
        #expect(Key.ctrl("c") == .ctrl(.character("c")))
        #expect(Key.ctrl("C") == .ctrl("c"))
        #expect(Key.backTab == .shift(.tab))
        #expect(Key.alt(.ctrl("x")) == .ctrl(.alt(.character("x"))))
        #expect(Set([Key.backTab, .shift(.tab)]).count == 1)
        #expect(try Key(parsing: "SHIFT+Down") == .shift(.down))
        #expect(try Key(parsing: "ctrl-shift-f5") == .ctrl(.shift(.f(5))))
        #expect(Key.ctrl(.shift(.f(5))).name == "ctrl-shift-f5")
        #expect(Key.shift(.alt(.ctrl(.super(.character("x"))))).name == "ctrl-alt-shift-super-x")
        #expect(Key.release(.ctrl(.character("a"))).name == "release:ctrl-a")
        #expect(Key.backTab.name == "backtab" && Key.ctrl(" ").name == "ctrl-space")
    }

    @Test func typedTextBecomesKeys() {
        #expect(Key.typing("aA \r\t\u{1b}\u{7f}\u{1}\n\u{0}\u{1f}") == [
            .character("a"), .character("A"), .character(" "), .enter, .tab, .escape, .backspace, .ctrl("a"), .ctrl("j"),
            .ctrl(" "), .ctrl("_"),
        ])
    }
}
