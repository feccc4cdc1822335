/// The modifier keys held with a key or during a mouse event, with the kitty keyboard
/// protocol's bits. xterm uses the same first three: its key modifier parameter is 1 + shift 1
/// + alt 2 + ctrl 4, and a mouse report adds them shifted left by 2 (shift 4, alt 8, control
/// 16). A mouse report has no Super: a mouse gesture with `.super` throws and sends nothing.
public struct KeyModifiers: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The bits: shift 1, alt 2, ctrl 4, super 8.
    public let rawValue: Int

    /// Modifiers from their bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Shift.
    public static let shift = KeyModifiers(rawValue: 1)
    /// Alt (Meta, Option).
    public static let alt = KeyModifiers(rawValue: 2)
    /// Control.
    public static let ctrl = KeyModifiers(rawValue: 4)
    /// Super (Windows, Command).
    public static let `super` = KeyModifiers(rawValue: 8)

    /// The names in the order key names write them: `ctrl`, `alt`, `shift`, `super`.
    static let named: [(KeyModifiers, String)] = [(.ctrl, "ctrl"), (.alt, "alt"), (.shift, "shift"), (.super, "super")]

    /// `"ctrl-shift"`, `"none"`.
    public var description: String {
        let names = Self.named.filter { contains($0.0) }.map(\.1)
        return names.isEmpty ? "none" : names.joined(separator: "-")
    }
}
