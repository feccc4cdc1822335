extension Key {
    /// Parses a key name as written in flow scripts: `enter`, `tab`, `shift-tab`, `backspace`,
    /// `esc`, `up`, `down`, `left`, `right`, `home`, `end`, `pgup`, `pgdn`, `insert`, `delete`,
    /// `f1`...`f12`, `space`, or a single character, after any of the modifiers `ctrl-`
    /// (also `c-`, `^c`), `alt-` (also `meta-`, `m-`), `shift-` and `super-`, in any order
    /// (`ctrl-shift-f5`, `alt-enter`, `super-x`); `release:KEY` is the key going up.
    /// Case-insensitive except for a single character.
    public init(parsing name: String) throws(KeyError) {
        guard let key = Self.parse(name) else { throw .unknownKeyName(name) }
        self = key
    }

    static let namedKeys: [String: Key] = [
        "enter": .enter, "return": .enter, "cr": .enter, "ret": .enter,
        "tab": .tab,
        "backtab": .backTab, "shift-tab": .backTab, "s-tab": .backTab,
        "backspace": .backspace, "bs": .backspace, "bksp": .backspace,
        "esc": .escape, "escape": .escape,
        "up": .up, "down": .down, "left": .left, "right": .right,
        "home": .home, "end": .end,
        "pgup": .pageUp, "pageup": .pageUp, "page-up": .pageUp, "prior": .pageUp,
        "pgdn": .pageDown, "pgdown": .pageDown, "pagedown": .pageDown, "page-down": .pageDown, "next": .pageDown,
        "ins": .insert, "insert": .insert,
        "del": .delete, "delete": .delete,
        "space": .character(" "), "spc": .character(" "),
    ]

    /// The modifier prefixes a name may start with (also with `+` instead of `-`).
    private static let modifierPrefixes: [(String, KeyModifiers)] = [
        ("ctrl", .ctrl), ("control", .ctrl), ("c", .ctrl), ("alt", .alt), ("meta", .alt), ("m", .alt),
        ("shift", .shift), ("super", .super),
    ]

    private static func parse(_ name: String) -> Key? {
        let releasePrefix = "release:"
        if name.count > releasePrefix.count, name.lowercased().hasPrefix(releasePrefix) {
            return parsePressed(String(name.dropFirst(releasePrefix.count))).map { .release($0) }
        }
        return parsePressed(name)
    }

    private static func parsePressed(_ name: String) -> Key? {
        if name.count == 1, let character = name.first { return .character(character) }
        let lowered = name.lowercased()
        if let key = namedKeys[lowered] { return key }
        if lowered.hasPrefix("f"), let number = Int(lowered.dropFirst()), (1...12).contains(number) {
            return .f(number)
        }
        // "^c" is Ctrl-C.
        if name.count == 2, name.hasPrefix("^"), let character = name.last { return .ctrl(character) }
        for (word, modifier) in modifierPrefixes {
            for separator in ["-", "+"] where lowered.hasPrefix(word + separator) {
                let rest = String(name.dropFirst(word.count + 1))
                if modifier == .ctrl, rest.count == 1, let character = rest.first { return .ctrl(character) }
                if modifier == .ctrl, rest.lowercased() == "space" { return .ctrl(" ") }
                guard let inner = parsePressed(rest) else { return nil }
                return modifier == .alt ? .alt(inner) : .modified(inner, modifier)
            }
        }
        return nil
    }
}

extension Key {
    /// The key's canonical name, as ``init(parsing:)`` reads it back: `enter`, `pgdn`, `f5`,
    /// `ctrl-c`, `alt-x`, `shift-down`, `ctrl-alt-shift-f5`, `release:a`, `space`, or the
    /// character itself (the modifiers in the order ctrl, alt, shift, super).
    public var name: String { stroke.name }

    /// Spelled-out key names, for "did you mean" suggestions.
    package static let commonNames: [String] = Array(namedKeys.keys) + (1...12).map { "f\($0)" }
        + ["ctrl-c", "ctrl-d", "alt-x", "shift-up", "shift-down", "ctrl-left", "ctrl-right", "alt-enter", "ctrl-enter"]
}

extension KeyStroke {
    /// The canonical name (see ``Key/name``).
    var name: String {
        var text = ""
        if isRelease { text += "release:" }
        if base == .tab && modifiers == .shift { return text + "backtab" }
        for (modifier, word) in KeyModifiers.named where modifiers.contains(modifier) { text += word + "-" }
        switch base {
        case .enter: return text + "enter"
        case .tab: return text + "tab"
        case .backspace: return text + "backspace"
        case .escape: return text + "esc"
        case .up: return text + "up"
        case .down: return text + "down"
        case .left: return text + "left"
        case .right: return text + "right"
        case .home: return text + "home"
        case .end: return text + "end"
        case .pageUp: return text + "pgup"
        case .pageDown: return text + "pgdn"
        case .insert: return text + "insert"
        case .delete: return text + "delete"
        case .f(let number): return text + "f\(number)"
        case .character(let character): return text + Self.characterName(character)
        case .backTab, .ctrl, .alt, .modified, .release: return text + "?"  // never a stroke's base
        }
    }

    /// `space` for the space, else the character.
    static func characterName(_ character: Character) -> String { character == " " ? "space" : String(character) }
}

