/// Why a focus change was not sent. Nothing is written to the program when it is thrown.
public enum FocusError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The program did not enable focus reporting (no DECSET 1004), so a real terminal would
    /// not tell it either.
    case reportingOff(FocusChange)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .reportingOff(let change):
            return "Cannot send focus \(change): the app did not enable focus reporting "
                + "(no DECSET 1004 was received; nothing was sent)"
        }
    }
}
