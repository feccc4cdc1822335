/// What a program wrote to the clipboard with OSC 52 (`ESC ] 52 ; c ; BASE64 BEL`): the
/// harness keeps it instead of touching any real clipboard.
public struct ClipboardWrite: Sendable, Hashable {
    /// The selection parameter as written: `c` (clipboard), `p` (primary), `s`, `0`-`7`, or
    /// several of them; `s0` when the program left it empty (xterm's default).
    public let selection: String
    /// The decoded text (UTF-8; invalid bytes become U+FFFD); "" when the program cleared it.
    public let text: String
}
