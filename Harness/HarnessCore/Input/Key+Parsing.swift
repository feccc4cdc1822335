extension Key {
    /// Parses a key name as written in flow scripts: `enter`, `tab`, `shift-tab`, `backspace`,
    /// `esc`, `up`, `down`, `left`, `right`, `home`, `end`, `pgup`, `pgdn`, `insert`, `delete`,
    /// `f1`...`f12`, `space`, `ctrl-c` (also `c-c`, `^c`), `alt-x` (also `meta-x`, `m-x`),
    /// combinations such as `ctrl-alt-x`, or a single character. Case-insensitive except for
    /// a single character.
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

    private static func parse(_ name: String) -> Key? {
        if name.count == 1, let character = name.first { return .character(character) }
        let lowered = name.lowercased()
        if let key = namedKeys[lowered] { return key }
        if lowered.hasPrefix("f"), let number = Int(lowered.dropFirst()), (1...12).contains(number) {
            return .f(number)
        }
        // "^c" is Ctrl-C.
        if name.count == 2, name.hasPrefix("^"), let character = name.last {
            return controlKey(character)
        }
        for prefix in ["ctrl-", "control-", "c-", "ctrl+", "control+"] where lowered.hasPrefix(prefix) {
            let rest = String(name.dropFirst(prefix.count))
            if rest.count == 1, let character = rest.first { return controlKey(character) }
            if rest.lowercased() == "space" { return controlKey(" ") }
            // ctrl-alt-x is Alt with Ctrl-X.
            if let inner = parse(rest), case .alt(let base) = inner, case .character(let character) = base {
                return controlKey(character).map { .alt($0) }
            }
            return nil
        }
        for prefix in ["alt-", "meta-", "m-", "alt+", "meta+"] where lowered.hasPrefix(prefix) {
            let rest = String(name.dropFirst(prefix.count))
            return parse(rest).map { .alt($0) }
        }
        return nil
    }

    /// Ctrl plus a character, accepted only where it has a control code.
    private static func controlKey(_ character: Character) -> Key? {
        let lowered = Character(character.lowercased())
        let key = Key.ctrl(lowered.isLetter ? lowered : character)
        return (try? key.encoded()) == nil ? nil : key
    }
}

extension Key {
    /// The key's canonical name, as ``init(parsing:)`` reads it back: `enter`, `pgdn`, `f5`,
    /// `ctrl-c`, `alt-x`, `space`, or the character itself.
    public var name: String {
        switch self {
        case .enter: "enter"
        case .tab: "tab"
        case .backTab: "backtab"
        case .backspace: "backspace"
        case .escape: "esc"
        case .up: "up"
        case .down: "down"
        case .left: "left"
        case .right: "right"
        case .home: "home"
        case .end: "end"
        case .pageUp: "pgup"
        case .pageDown: "pgdn"
        case .insert: "insert"
        case .delete: "delete"
        case .f(let number): "f\(number)"
        case .ctrl(let character): character == " " ? "ctrl-space" : "ctrl-\(character)"
        case .alt(let key): "alt-\(key.name)"
        case .character(" "): "space"
        case .character(let character): String(character)
        }
    }

    /// Spelled-out key names, for "did you mean" suggestions.
    public static let commonNames: [String] = Array(namedKeys.keys) + (1...12).map { "f\($0)" } + ["ctrl-c", "ctrl-d", "alt-x"]
}

