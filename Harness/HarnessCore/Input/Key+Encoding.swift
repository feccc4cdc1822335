import TerminalEmulator

extension Key {
    /// The bytes the terminal sends for this key.
    ///
    /// With no kitty keyboard flags (the default) they are xterm's: `CSI 1 ; m A` for a cursor
    /// key with modifiers (m = 1 + shift 1 + alt 2 + ctrl 4), `CSI n ; m ~` for Insert, Delete,
    /// the page keys and F5 to F12, `SS3 P` for F1 to F4 without modifiers, an ESC prefix for
    /// Alt, a C0 control byte for Ctrl and a letter. In application cursor-key mode (DECCKM,
    /// `CSI ? 1 h`) unmodified arrows, Home and End are `ESC O A` instead of `ESC [ A`. A key
    /// those bytes cannot tell from another one (`ctrl-enter` is `enter`, `ctrl-shift-a` is
    /// `ctrl-a`) or cannot express (Super, a release) throws instead of sending wrong bytes.
    ///
    /// With kitty flags (what the program pushed, ``TerminalModes/kittyKeyboard``) the key is
    /// encoded as the kitty keyboard protocol says: see ``KittyKeyEncoder``.
    package func encoded(applicationCursorKeys: Bool = false, kittyFlags: KittyKeyboardFlags = []) throws(KeyError) -> [UInt8] {
        let stroke = stroke
        if case .f(let number) = stroke.base, !(1...12).contains(number) { throw .unsupportedFunctionKey(number) }
        if stroke.isRelease {
            guard kittyFlags.contains(.reportEventTypes) else {
                throw .releaseNotReported(key: stroke.pressed.name, flags: kittyFlags,
                                          reason: "the program did not ask for key release events (kitty keyboard flag 2)")
            }
        } else if kittyFlags.isDisjoint(with: [.disambiguate, .reportAllKeysAsEscapeCodes]) {
            return try LegacyKeyEncoder(applicationCursorKeys: applicationCursorKeys).bytes(for: stroke)
        }
        return try KittyKeyEncoder(flags: kittyFlags).bytes(for: stroke)
    }

    /// The keys that type `text` on the harness's keyboard, one per character: a printable
    /// character is its own key, `\r` and `\n`... are the keys a C0 control byte comes from
    /// (``init(controlByte:)``: `\u{1}` ctrl-a, `\n` ctrl-j, NUL ctrl-space).
    static func typing(_ text: String) -> [Key] {
        text.map { character in
            guard let ascii = character.asciiValue, ascii < 0x20 || ascii == 0x7f else { return .character(character) }
            return Key(controlByte: ascii)
        }
    }

    /// The key a C0 control byte (below 0x20) or DEL comes from: `\r` Enter, `\t` Tab, ESC
    /// Escape, DEL Backspace, NUL ctrl-space, 0x01...0x1A ctrl-a to ctrl-z (`\n` is ctrl-j),
    /// 0x1C...0x1F ctrl-\ ] ^ _.
    package init(controlByte byte: UInt8) {
        switch byte {
        case 0x0d: self = .enter
        case 0x09: self = .tab
        case 0x1b: self = .escape
        case 0x7f: self = .backspace
        case 0x00: self = .ctrl(" ")
        case 0x01...0x1a: self = .ctrl(Character(UnicodeScalar(byte + 0x60)))
        default: self = .ctrl(Character(UnicodeScalar(byte + 0x40)))  // 0x1c...0x1f: ctrl-\ ] ^ _
        }
    }
}

extension KeyStroke {
    /// The same stroke going down.
    var pressed: KeyStroke { KeyStroke(base: base, modifiers: modifiers, isRelease: false) }

    /// xterm's and kitty's modifier parameter: 1 + the bits.
    var modifierParameter: Int { 1 + modifiers.rawValue }

    /// The final byte of the keys sent as `CSI 1 ; m X` (arrows, Home, End; F1, F2, F4 in kitty's form).
    var letterFinal: UInt8? {
        switch base {
        case .up: return UInt8(ascii: "A")
        case .down: return UInt8(ascii: "B")
        case .right: return UInt8(ascii: "C")
        case .left: return UInt8(ascii: "D")
        case .home: return UInt8(ascii: "H")
        case .end: return UInt8(ascii: "F")
        default: return nil
        }
    }

    /// The number of the keys sent as `CSI n ; m ~` (F1 to F4 are not among them in xterm's form).
    var tildeNumber: Int? {
        switch base {
        case .insert: return 2
        case .delete: return 3
        case .pageUp: return 5
        case .pageDown: return 6
        case .f(let number) where number >= 5: return [15, 17, 18, 19, 20, 21, 23, 24][number - 5]  // xterm skips 16 and 22
        default: return nil
        }
    }
}
