/// Xterm's bytes for a key (no modifyOtherKeys): what a terminal sends until a program asks
/// for the kitty keyboard protocol. A combination these bytes cannot express, or cannot tell
/// from another key, throws ``KeyError/notInLegacyEncoding(key:reason:)``.
struct LegacyKeyEncoder {
    /// DECCKM: unmodified arrows, Home and End as `SS3 X`.
    var applicationCursorKeys: Bool

    private static let csi: [UInt8] = [0x1b, UInt8(ascii: "[")]
    private static let ss3: [UInt8] = [0x1b, UInt8(ascii: "O")]
    private static let escape: UInt8 = 0x1b

    func bytes(for stroke: KeyStroke) throws(KeyError) -> [UInt8] {
        let modifiers = stroke.modifiers
        func refuse(_ reason: String) -> KeyError { .notInLegacyEncoding(key: stroke.name, reason: reason) }
        if modifiers.contains(.super) { throw refuse("xterm's legacy keys have no Super modifier") }
        let parameter = stroke.modifierParameter
        if let final = stroke.letterFinal {
            if modifiers.isEmpty { return (applicationCursorKeys ? Self.ss3 : Self.csi) + [final] }
            return Self.csi + Array("1;\(parameter)".utf8) + [final]
        }
        if case .f(let number) = stroke.base, number <= 4 {
            let final = UInt8(ascii: "P") + UInt8(number - 1)
            return modifiers.isEmpty ? Self.ss3 + [final] : Self.csi + Array("1;\(parameter)".utf8) + [final]
        }
        if let number = stroke.tildeNumber {
            return Self.csi + Array((modifiers.isEmpty ? "\(number)~" : "\(number);\(parameter)~").utf8)
        }
        // The rest: Alt is an ESC prefix before the key's bytes with the other modifiers.
        let prefix: [UInt8] = modifiers.contains(.alt) ? [Self.escape] : []
        let rest = modifiers.subtracting(.alt)
        switch stroke.base {
        case .enter:
            guard rest.isEmpty else { throw refuse("xterm sends the same byte for \(rest)-enter as for enter") }
            return prefix + [0x0d]
        case .tab:
            switch rest {
            case []: return prefix + [0x09]
            case .shift: return prefix + Self.csi + [UInt8(ascii: "Z")]
            default: throw refuse("xterm sends the same bytes for \(rest)-tab as for tab or shift-tab")
            }
        case .backspace:
            switch rest {
            case []: return prefix + [0x7f]
            case .ctrl: return prefix + [0x08]  // ctrl-backspace sends BS, as xterm and most terminals do
            default: throw refuse("xterm sends the same byte for \(rest)-backspace as for backspace")
            }
        case .escape:
            guard rest.isEmpty else { throw refuse("xterm sends the same byte for \(rest)-esc as for esc") }
            return prefix + [Self.escape]
        case .character(let character):
            return prefix + (try textKey(character, rest, refuse))
        default:
            throw refuse("xterm has no bytes for it")  // not reached: every plain key is handled above
        }
    }

    /// A character key with Shift and/or Ctrl (Alt is the caller's prefix).
    private func textKey(_ character: Character, _ modifiers: KeyModifiers, _ refuse: (String) -> KeyError) throws(KeyError) -> [UInt8] {
        switch modifiers {
        case []:
            return Array(String(character).utf8)
        case .shift:
            guard let shifted = USKeyboard.shifted(USKeyboard.key(typing: character).key) else {
                throw refuse("\(String(character).debugDescription) has no shifted character, so xterm sends it unchanged")
            }
            return Array(String(shifted).utf8)
        case .ctrl:
            return [try Self.controlByte(for: character)]
        default:
            throw refuse("xterm sends the same byte for ctrl-shift-\(KeyStroke.characterName(character)) as for ctrl-\(KeyStroke.characterName(character))")
        }
    }

    /// The C0 control byte for Ctrl plus `character`, as xterm maps it.
    static func controlByte(for character: Character) throws(KeyError) -> UInt8 {
        guard let ascii = character.asciiValue else { throw .unsupportedControlCharacter(character) }
        switch ascii {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return ascii - UInt8(ascii: "a") + 1
        case UInt8(ascii: "@")...UInt8(ascii: "_"): return ascii - UInt8(ascii: "@")  // A-Z [ \ ] ^ _
        case UInt8(ascii: " "): return 0
        case UInt8(ascii: "?"): return 0x7f
        case UInt8(ascii: "2"): return 0  // Ctrl-2 is NUL, like Ctrl-@
        default: throw .unsupportedControlCharacter(character)
        }
    }
}
