/// What a ``Key`` value means, whichever way it was spelled: the key itself (a named key,
/// a function key or a character, with no modifier), the modifiers held, and whether it goes
/// down or up. Both encoders, the names and equality read this.
struct KeyStroke {
    /// A key without modifiers: never `.ctrl`, `.alt`, `.backTab`, `.modified` or `.release`.
    var base: Key
    var modifiers: KeyModifiers
    var isRelease: Bool
}

extension KeyStroke: Hashable {
    static func == (lhs: KeyStroke, rhs: KeyStroke) -> Bool {
        lhs.base.plainIdentity == rhs.base.plainIdentity && lhs.modifiers == rhs.modifiers && lhs.isRelease == rhs.isRelease
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(base.plainIdentity)
        hasher.combine(modifiers)
        hasher.combine(isRelease)
    }
}

extension Key {
    /// The key as a stroke: the plain key, the union of the modifiers, down or up.
    var stroke: KeyStroke {
        switch self {
        case .backTab: return KeyStroke(base: .tab, modifiers: .shift, isRelease: false)
        case .ctrl(let character):
            // Ctrl-C and Ctrl-c are one key, as in xterm.
            let lowered = character.lowercased()
            let key = character.isLetter && lowered.count == 1 ? Character(lowered) : character
            return KeyStroke(base: .character(key), modifiers: .ctrl, isRelease: false)
        case .alt(let key):
            var stroke = key.stroke
            stroke.modifiers.insert(.alt)
            return stroke
        case .modified(let key, let modifiers):
            var stroke = key.stroke
            stroke.modifiers.formUnion(modifiers)
            return stroke
        case .release(let key):
            var stroke = key.stroke
            stroke.isRelease = true
            return stroke
        default:
            return KeyStroke(base: self, modifiers: [], isRelease: false)
        }
    }

    /// A plain key as a value that compares without going through ``stroke`` (which would recurse).
    fileprivate var plainIdentity: String {
        switch self {
        case .enter: return "enter"
        case .tab: return "tab"
        case .backspace: return "backspace"
        case .escape: return "esc"
        case .up: return "up"
        case .down: return "down"
        case .left: return "left"
        case .right: return "right"
        case .home: return "home"
        case .end: return "end"
        case .pageUp: return "pgup"
        case .pageDown: return "pgdn"
        case .insert: return "insert"
        case .delete: return "delete"
        case .f(let number): return "f\(number)"
        case .character(let character): return "'" + String(character)
        case .backTab, .ctrl, .alt, .modified, .release: return "not plain"  // never a stroke's base
        }
    }
}

extension Character {
    /// One Unicode scalar (a key code can name it).
    var isSingleScalar: Bool { unicodeScalars.count == 1 }
}
