/// The kitty keyboard protocol's progressive enhancement flags
/// (https://sw.kovidgoyal.net/kitty/keyboard-protocol/): what a program asked the terminal to
/// change in how keys are sent. No flag set (the power-on state) means xterm's legacy bytes.
///
/// A program pushes flags with `CSI > flags u`, pops them with `CSI < n u`, changes the
/// current entry with `CSI = flags ; mode u` and asks for them with `CSI ? u`; the main and the
/// alternate screen keep stacks of their own (``TerminalModes/kittyKeyboard`` is the flags of
/// the screen shown now).
public struct KittyKeyboardFlags: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The flag bits (1, 2, 4, 8, 16).
    public let rawValue: Int

    /// Flags from their bits; bits the protocol does not define are dropped.
    public init(rawValue: Int) { self.rawValue = rawValue & Self.all.rawValue }

    /// 1: keys whose legacy bytes are ambiguous (Esc, Ctrl and Alt combinations, modified
    /// Enter, Tab and Backspace) are sent as `CSI code ; modifiers u`.
    public static let disambiguate = KittyKeyboardFlags(rawValue: 1)
    /// 2: the event type is reported (`:3` for a release), and key releases are sent.
    public static let reportEventTypes = KittyKeyboardFlags(rawValue: 2)
    /// 4: the shifted key is reported beside the key code (`CSI 97:65 ; 2 u`).
    public static let reportAlternateKeys = KittyKeyboardFlags(rawValue: 4)
    /// 8: every key, text keys, Enter, Tab and Backspace included, is sent as an escape code.
    public static let reportAllKeysAsEscapeCodes = KittyKeyboardFlags(rawValue: 8)
    /// 16: with flag 8, the text a key types is added to its escape code (`CSI 97 ;; 97 u`).
    public static let reportAssociatedText = KittyKeyboardFlags(rawValue: 16)

    /// Every flag the protocol defines (31).
    public static let all = KittyKeyboardFlags(unchecked: 0b11111)
    private init(unchecked rawValue: Int) { self.rawValue = rawValue }

    /// `"none"` or the flags' names with the number: `"disambiguate, all keys as escape codes (9)"`.
    public var description: String {
        let names = [(Self.disambiguate, "disambiguate"), (.reportEventTypes, "event types"),
                     (.reportAlternateKeys, "alternate keys"), (.reportAllKeysAsEscapeCodes, "all keys as escape codes"),
                     (.reportAssociatedText, "associated text")]
            .filter { contains($0.0) }.map(\.1)
        return names.isEmpty ? "none (0)" : names.joined(separator: ", ") + " (\(rawValue))"
    }
}
