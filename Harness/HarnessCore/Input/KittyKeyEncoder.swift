import TerminalEmulator

/// The kitty keyboard protocol's bytes for a key (https://sw.kovidgoyal.net/kitty/keyboard-protocol/),
/// for the flags the program pushed:
///
/// - a key is `CSI code ; modifiers u` (code: the Unicode value of the unshifted key, 27
///   Escape, 13 Enter, 9 Tab, 127 Backspace; modifiers: 1 + shift 1 + alt 2 + ctrl 4 + super 8,
///   left out when 1), except arrows, Home, End, F1, F2 and F4 (`CSI 1 ; m A`, `CSI A` without
///   modifiers) and Insert, Delete, the page keys, F3 and F5 to F12 (`CSI n ; m ~`);
/// - flag 1 (disambiguate): keys that type text with at most Shift held (`a`, `A`, `!`) and
///   Enter, Tab and Backspace without modifiers keep their plain bytes; everything else is an
///   escape code (Escape is `CSI 27 u`, ctrl-c `CSI 99 ; 5 u`, shift-enter `CSI 13 ; 2 u`);
/// - flag 8 (all keys as escape codes): text keys, Enter, Tab and Backspace are escape codes too;
/// - flag 2 (event types): a release is sent as `CSI code ; m:3 u` (Enter, Tab and Backspace
///   have releases only with flag 8); a press is the default type and is not written;
/// - flag 4 (alternate keys): with Shift, the shifted key follows the code (`CSI 97:65 ; 2 u`);
/// - flag 16 (associated text, with flag 8): the text the key types follows as a third field
///   (`CSI 97 ;; 97 u`; none with Ctrl, Alt or Super held, nor for a release).
///
/// Without flags 1 and 8 a press keeps xterm's bytes (``LegacyKeyEncoder``); only releases
/// come here. Cursor keys ignore DECCKM in this protocol: always `CSI A`, never `SS3 A`.
struct KittyKeyEncoder {
    /// What the program pushed.
    var flags: KittyKeyboardFlags

    func bytes(for stroke: KeyStroke) throws(KeyError) -> [UInt8] {
        var modifiers = stroke.modifiers
        let event = stroke.isRelease ? 3 : 1
        let allKeys = flags.contains(.reportAllKeysAsEscapeCodes)
        switch stroke.base {
        case .character(let character):
            guard character.isSingleScalar else { return try cluster(character, stroke) }
            let (key, impliedShift) = USKeyboard.key(typing: character)
            if impliedShift { modifiers.insert(.shift) }
            let typesText = modifiers.isSubset(of: .shift)
            let text: Character = modifiers.contains(.shift) ? (USKeyboard.shifted(key) ?? key) : key
            if typesText && !stroke.isRelease && !allKeys { return Array(String(text).utf8) }
            var code = "\(key.unicodeScalars.first!.value)"
            if flags.contains(.reportAlternateKeys), modifiers.contains(.shift), text != key {
                code += ":\(text.unicodeScalars.first!.value)"
            }
            let associated = flags.contains(.reportAssociatedText) && allKeys && typesText && !stroke.isRelease
            return Self.sequence(code, modifiers, event: event, text: associated ? text : nil, final: "u")
        case .enter: return try textEditingKey(13, stroke, modifiers, event: event)
        case .tab: return try textEditingKey(9, stroke, modifiers, event: event)
        case .backspace: return try textEditingKey(127, stroke, modifiers, event: event)
        case .escape:
            return Self.sequence("27", modifiers, event: event, text: nil, final: "u")
        case .f(3):
            return Self.sequence("13", modifiers, event: event, text: nil, final: "~")  // CSI R would read as a cursor report
        case .f(let number) where number <= 4:
            return Self.letterKey(UInt8(ascii: "P") + UInt8(number - 1), modifiers, event: event)
        default:
            if let final = stroke.letterFinal { return Self.letterKey(final, modifiers, event: event) }
            return Self.sequence("\(stroke.tildeNumber!)", modifiers, event: event, text: nil, final: "~")
        }
    }

    /// Enter, Tab and Backspace: their plain byte without modifiers unless flag 8 is set.
    private func textEditingKey(_ code: Int, _ stroke: KeyStroke, _ modifiers: KeyModifiers, event: Int) throws(KeyError) -> [UInt8] {
        if !flags.contains(.reportAllKeysAsEscapeCodes) {
            if stroke.isRelease {
                throw .releaseNotReported(key: stroke.pressed.name, flags: flags,
                                          reason: "the protocol reports no release of Enter, Tab or Backspace without flag 8")
            }
            if modifiers.isEmpty { return [UInt8(code)] }
        }
        return Self.sequence("\(code)", modifiers, event: event, text: nil, final: "u")
    }

    /// A character of several code points (an emoji with a modifier): no key has it as its
    /// code, so it is typed as text, as an input method would; with modifiers it cannot be sent.
    private func cluster(_ character: Character, _ stroke: KeyStroke) throws(KeyError) -> [UInt8] {
        guard stroke.modifiers.isSubset(of: .shift), !stroke.isRelease else { throw .notOneKey(String(character)) }
        return Array(String(character).utf8)
    }

    /// `CSI A`, `CSI 1 ; m A`, `CSI 1 ; 1:3 A`.
    private static func letterKey(_ final: UInt8, _ modifiers: KeyModifiers, event: Int) -> [UInt8] {
        if modifiers.isEmpty && event == 1 { return [0x1b, UInt8(ascii: "[")] + [final] }
        return sequence("1", modifiers, event: event, text: nil, final: Character(UnicodeScalar(final)))
    }

    /// `CSI number [; modifiers[:event]] [; text] final`, leaving out what has its default value.
    static func sequence(_ number: String, _ modifiers: KeyModifiers, event: Int, text: Character?, final: Character) -> [UInt8] {
        var body = "\u{1b}[" + number
        let parameter = 1 + modifiers.rawValue
        if parameter != 1 || event != 1 || text != nil {
            body += ";"
            if parameter != 1 || event != 1 { body += "\(parameter)" }
            if event != 1 { body += ":\(event)" }
        }
        if let text { body += ";" + text.unicodeScalars.map { "\($0.value)" }.joined(separator: ":") }
        body.append(final)
        return Array(body.utf8)
    }
}
