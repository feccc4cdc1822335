/// A key on the keyboard, encoded into the bytes xterm would send for it.
///
/// ```swift
/// try session.press(.ctrl("c"))
/// try session.press(.down, .down, .enter)
/// try session.press(Key(parsing: "alt-x"))
/// ```
public enum Key: Sendable, Hashable {
    /// Return: carriage return (`\r`).
    case enter
    /// Tab (`\t`).
    case tab
    /// Shift-Tab (`CSI Z`).
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
    /// Control plus a character: a letter, or one of `@ [ \ ] ^ _ ?` and space.
    case ctrl(Character)
    /// Alt (Meta) plus a key: an ESC prefix, or the modifier parameter for cursor and function keys.
    indirect case alt(Key)
    /// A printable character, sent as UTF-8.
    case character(Character)
}

/// Why a key cannot be parsed or encoded.
public enum KeyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `Key(parsing:)` did not recognise the name.
    case unknownKeyName(String)
    /// Only F1 to F12 exist.
    case unsupportedFunctionKey(Int)
    /// `ctrl` only combines with letters, `@ [ \ ] ^ _ ?` and space.
    case unsupportedControlCharacter(Character)

    /// A one-line explanation naming the offending key.
    public var description: String {
        switch self {
        case .unknownKeyName(let name):
            return "Unknown key name \(name.debugDescription) (expected e.g. enter, tab, esc, up, pgup, f1, ctrl-c, alt-x, or one character)"
        case .unsupportedFunctionKey(let number):
            return "Unsupported function key F\(number) (only F1 to F12)"
        case .unsupportedControlCharacter(let character):
            return "Ctrl cannot combine with \(String(character).debugDescription) (use a letter or one of @ [ \\ ] ^ _ ? and space)"
        }
    }
}
