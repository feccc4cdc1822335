import TerminalEmulator

/// A key on the keyboard (a US layout), encoded into the bytes the terminal sends for it:
/// xterm's by default, the kitty keyboard protocol's when the program asked for it
/// (``encoded(applicationCursorKeys:kittyFlags:)``).
///
/// ```swift
/// try session.press(.ctrl("c"))
/// try session.press(.down, .down, .enter)
/// try session.press(.shift(.down), .ctrl(.left), .ctrl(.shift(.f(5))), .alt(.enter))
/// try session.press(Key(parsing: "ctrl-shift-a"))
/// try session.press(.release(.character("a")))   // kitty flag 2 only
/// ```
///
/// Keys compare by what is pressed: `.ctrl("c")` equals `.ctrl(.character("c"))`, `.backTab`
/// equals `.shift(.tab)`, `.alt(.ctrl("x"))` equals `.ctrl(.alt(.character("x")))`.
public enum Key: Sendable, Hashable {
    /// Return: carriage return (`\r`).
    case enter
    /// Tab (`\t`).
    case tab
    /// Shift-Tab (`CSI Z`), the same key as `.shift(.tab)`.
    case backTab
    /// Backspace: DEL (0x7f), as xterm sends by default.
    case backspace
    /// Escape (0x1b).
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
    /// Page Up.
    case pageUp
    /// Page Down.
    case pageDown
    /// Insert.
    case insert
    /// Delete (forward delete, `CSI 3 ~`).
    case delete
    /// Function key F1 to F12.
    case f(Int)
    /// Control plus a character: a letter (either case: the same key), a digit or punctuation.
    /// Xterm's legacy bytes exist for letters, `@ [ \ ] ^ _ ?`, `2` and space only.
    case ctrl(Character)
    /// Alt (Meta) plus a key: an ESC prefix, or the modifier parameter for cursor and function keys.
    indirect case alt(Key)
    /// A printable character, sent as UTF-8 (with the kitty protocol's flag 8, as its key).
    case character(Character)
    /// A key with modifiers held (``shift(_:)``, ``ctrl(_:)-(Key)``, ``super(_:)`` spell it shorter).
    indirect case modified(Key, KeyModifiers)
    /// The key going up. Only a program that enabled the kitty keyboard protocol's event types
    /// (flag 2) is told about releases; for any other, sending one fails.
    indirect case release(Key)

    /// The key with Shift held: `.shift(.down)`, `.shift(.character("a"))`.
    public static func shift(_ key: Key) -> Key { .modified(key, .shift) }
    /// The key with Control held: `.ctrl(.left)`, `.ctrl(.enter)`, `.ctrl(.shift(.f(5)))`.
    public static func ctrl(_ key: Key) -> Key { .modified(key, .ctrl) }
    /// The key with Super (the Windows or Command key) held: `.super(.character("x"))`.
    /// Xterm's legacy bytes have no Super: only the kitty keyboard protocol can send it.
    public static func `super`(_ key: Key) -> Key { .modified(key, .super) }

    /// Equal when the same key is pressed with the same modifiers (see ``Key``).
    public static func == (lhs: Key, rhs: Key) -> Bool { lhs.stroke == rhs.stroke }

    /// Hashes what ``==`` compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(stroke) }
}

/// Why a key cannot be parsed or encoded.
public enum KeyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `Key(parsing:)` did not recognise the name.
    case unknownKeyName(String)
    /// Only F1 to F12 exist.
    case unsupportedFunctionKey(Int)
    /// `ctrl` only combines with letters, `@ [ \ ] ^ _ ?` and space in xterm's legacy bytes.
    case unsupportedControlCharacter(Character)
    /// Xterm's legacy bytes cannot tell the key from another one (`ctrl-enter` is `enter`)
    /// or have no form for it (`super-x`); the program did not enable the kitty keyboard
    /// protocol, which could. Nothing was sent.
    case notInLegacyEncoding(key: String, reason: String)
    /// A release (`release:KEY`) for a program that did not ask for event types (kitty flag 2),
    /// or one the protocol does not report (Enter, Tab and Backspace without flag 8).
    case releaseNotReported(key: String, flags: KittyKeyboardFlags, reason: String)
    /// A character made of several code points (an emoji with a skin tone) with Ctrl, Alt or
    /// Super, or released: no key sends it.
    case notOneKey(String)

    /// A one-line explanation naming the offending key.
    public var description: String {
        switch self {
        case .unknownKeyName(let name):
            return "Unknown key name \(name.debugDescription) (expected e.g. enter, tab, esc, up, pgup, f1, ctrl-c, alt-x, or one character)"
        case .unsupportedFunctionKey(let number):
            return "Unsupported function key F\(number) (only F1 to F12)"
        case .unsupportedControlCharacter(let character):
            return "Ctrl cannot combine with \(String(character).debugDescription) in xterm's legacy keys "
                + "(use a letter or one of @ [ \\ ] ^ _ ? and space, or a program that enables the kitty keyboard protocol)"
        case .notInLegacyEncoding(let key, let reason):
            return "Cannot press \(key): \(reason); the program did not enable the kitty keyboard protocol, "
                + "which could send it (nothing was sent)"
        case .releaseNotReported(let key, let flags, let reason):
            return "Cannot send release:\(key): \(reason) (the program's kitty keyboard flags: \(flags); nothing was sent)"
        case .notOneKey(let text):
            return "\(text.debugDescription) is several code points: no single key sends it with a modifier or as a release"
        }
    }
}
