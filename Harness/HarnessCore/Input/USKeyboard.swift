/// The harness's keyboard layout: US English. It says which key types a character and
/// whether Shift is held for it (`!` is Shift and `1`, `A` is Shift and `a`), which the kitty
/// keyboard protocol reports (the key code is always the unshifted key's) and xterm's
/// `shift-1` needs.
enum USKeyboard {
    /// Unshifted punctuation and digits, and what Shift makes of them.
    private static let pairs: [(Character, Character)] = [
        ("`", "~"), ("1", "!"), ("2", "@"), ("3", "#"), ("4", "$"), ("5", "%"), ("6", "^"), ("7", "&"),
        ("8", "*"), ("9", "("), ("0", ")"), ("-", "_"), ("=", "+"), ("[", "{"), ("]", "}"), ("\\", "|"),
        (";", ":"), ("'", "\""), (",", "<"), (".", ">"), ("/", "?"),
    ]
    private static let shiftedOf = Dictionary(uniqueKeysWithValues: pairs)
    private static let unshiftedOf = Dictionary(uniqueKeysWithValues: pairs.map { ($1, $0) })

    /// The character Shift makes of an unshifted key (`a` gives `A`, `1` gives `!`); nil when
    /// Shift changes nothing (space, an uppercase letter, a character with no case).
    static func shifted(_ character: Character) -> Character? {
        if let shifted = shiftedOf[character] { return shifted }
        let upper = character.uppercased()
        guard character.isLetter, character.isLowercase, upper.count == 1 else { return nil }
        return Character(upper)
    }

    /// The key that types `character` and whether Shift is held for it: `A` is `a` with
    /// Shift, `!` is `1` with Shift, `a` and `é` and `世` are themselves without.
    static func key(typing character: Character) -> (key: Character, shift: Bool) {
        if let unshifted = unshiftedOf[character] { return (unshifted, true) }
        let lower = character.lowercased()
        if character.isLetter, character.isUppercase, lower.count == 1 { return (Character(lower), true) }
        return (character, false)
    }
}
