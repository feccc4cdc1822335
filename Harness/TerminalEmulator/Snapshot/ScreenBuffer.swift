/// Which of the terminal's two screens is shown.
public enum ScreenBuffer: Sendable, Hashable {
    /// The normal screen (shells, line-oriented programs).
    case main
    /// The alternate screen full-screen programs switch to (DEC modes 1049, 1047, 47).
    case alternate
}
