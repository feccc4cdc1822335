/// The terminal window gaining or losing the keyboard focus, which a program that enabled focus
/// reporting (DECSET 1004) is told as `CSI I` or `CSI O` (``TerminalDriving/focus(_:fileID:line:)``).
public enum FocusChange: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The window gained the focus: `CSI I`.
    case `in`
    /// The window lost the focus: `CSI O`.
    case out

    /// The bytes the program receives.
    package var bytes: [UInt8] { [0x1b, UInt8(ascii: "["), UInt8(ascii: self == .in ? "I" : "O")] }

    /// `"in"` or `"out"`.
    public var description: String { self == .in ? "in" : "out" }
}
