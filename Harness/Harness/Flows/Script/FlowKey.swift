/// A key of `press`, validated when the flow is parsed, with the bytes a terminal sends for it.
///
/// Names (case-insensitive): `enter` (`return`), `tab`, `backtab` (`shift-tab`), `backspace`,
/// `esc` (`escape`), `up`, `down`, `left`, `right`, `home`, `end`, `pgup` (`pageup`), `pgdn`
/// (`pagedown`), `insert`, `delete` (`del`), `f1`...`f12`, `space`, `ctrl-X` (X a letter or one
/// of `@ [ \ ] ^ _ ?` or `space`), `alt-X` (X any other key: Escape then that key's bytes), and a
/// single character, sent as itself (`q`, `Q`, `/`).
public enum FlowKey: Sendable, Hashable, CustomStringConvertible {
    /// Return (CR).
    case enter
    /// Tab.
    case tab
    /// Shift-Tab (CSI Z).
    case backtab
    /// Backspace (DEL, 0x7F).
    case backspace
    /// Escape.
    case escape
    /// Cursor up.
    case up
    /// Cursor down.
    case down
    /// Cursor left.
    case left
    /// Cursor right.
    case right
    /// Home.
    case home
    /// End.
    case end
    /// Page up.
    case pageUp
    /// Page down.
    case pageDown
    /// Insert.
    case insert
    /// Delete (forward).
    case delete
    /// The space bar.
    case space
    /// A function key, 1...12.
    case function(Int)
    /// Control with a letter (lowercased) or one of `@ [ \ ] ^ _ ?` or a space.
    case control(Character)
    /// Alt (meta) with another key: Escape, then that key.
    indirect case alt(FlowKey)
    /// A single character typed as itself.
    case character(Character)

    /// The names `press` accepts besides `ctrl-`, `alt-`, `f1`...`f12` and single characters.
    public static let namedKeys: [String: FlowKey] = [
        "enter": .enter, "return": .enter, "tab": .tab, "backtab": .backtab, "shift-tab": .backtab,
        "backspace": .backspace, "esc": .escape, "escape": .escape, "up": .up, "down": .down,
        "left": .left, "right": .right, "home": .home, "end": .end, "pgup": .pageUp, "pageup": .pageUp,
        "pgdn": .pageDown, "pagedown": .pageDown, "insert": .insert, "delete": .delete, "del": .delete,
        "space": .space,
    ]

    /// Every spelled-out key name, for suggestions in error messages.
    public static var allNames: [String] {
        Array(namedKeys.keys) + (1...12).map { "f\($0)" } + ["ctrl-c", "ctrl-d", "alt-x"]
    }

    private static let controlSymbols: Set<Character> = ["@", "[", "\\", "]", "^", "_", "?"]

    /// Parses a key name; nil when it is not a key.
    public init?(name: String) {
        if name.count == 1, let character = name.first, !character.isWhitespace {
            self = .character(character)
            return
        }
        let lower = name.lowercased()
        if let key = Self.namedKeys[lower] {
            self = key
            return
        }
        if lower.hasPrefix("f"), let number = Int(lower.dropFirst()), (1...12).contains(number),
           lower.dropFirst().allSatisfy(\.isASCIIDigit), !lower.hasPrefix("f0") {
            self = .function(number)
            return
        }
        if lower.hasPrefix("ctrl-") || lower.hasPrefix("c-") {
            let rest = name.dropFirst(lower.hasPrefix("ctrl-") ? 5 : 2)
            if rest.lowercased() == "space" {
                self = .control(" ")
                return
            }
            guard rest.count == 1, let character = rest.first else { return nil }
            let lowered = Character(character.lowercased())
            if lowered.isASCII, lowered.isLetter {
                self = .control(lowered)
            } else if Self.controlSymbols.contains(character) {
                self = .control(character)
            } else {
                return nil
            }
            return
        }
        if lower.hasPrefix("alt-") || lower.hasPrefix("meta-") || lower.hasPrefix("m-") {
            let prefixLength = lower.hasPrefix("alt-") ? 4 : (lower.hasPrefix("meta-") ? 5 : 2)
            let rest = String(name.dropFirst(prefixLength))
            guard let inner = FlowKey(name: rest) else { return nil }
            if case .alt = inner { return nil }
            self = .alt(inner)
            return
        }
        return nil
    }

    /// The canonical name, as accepted by ``init(name:)``.
    public var description: String {
        switch self {
        case .enter: "enter"
        case .tab: "tab"
        case .backtab: "backtab"
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
        case .space: "space"
        case .function(let number): "f\(number)"
        case .control(let character): character == " " ? "ctrl-space" : "ctrl-\(character)"
        case .alt(let key): "alt-\(key)"
        case .character(let character): String(character)
        }
    }

    /// The session's key this name stands for.
    public var key: Key {
        switch self {
        case .enter: .enter
        case .tab: .tab
        case .backtab: .backTab
        case .backspace: .backspace
        case .escape: .escape
        case .up: .up
        case .down: .down
        case .left: .left
        case .right: .right
        case .home: .home
        case .end: .end
        case .pageUp: .pageUp
        case .pageDown: .pageDown
        case .insert: .insert
        case .delete: .delete
        case .space: .character(" ")
        case .function(let number): .f(number)
        case .control(let character): .ctrl(character)
        case .alt(let key): .alt(key.key)
        case .character(let character): .character(character)
        }
    }

    /// The bytes an xterm sends for this key (encoded by ``Key``; names are validated when the
    /// flow is parsed, so every `FlowKey` encodes).
    ///
    /// - Parameter applicationCursorKeys: the terminal's DECCKM mode: arrows, Home and End then
    ///   send `ESC O x` instead of `ESC [ x`.
    public func bytes(applicationCursorKeys: Bool = false) -> [UInt8] {
        (try? key.encoded(applicationCursorKeys: applicationCursorKeys)) ?? []
    }
}
