import TerminalEmulator
import Testing

/// How Swift Testing prints the emulator's values in a failed `#expect`: the same short text as
/// their `description` (a framed screen, a cell with its style), never their stored fields.
extension ScreenSnapshot: CustomTestStringConvertible {
    public var testDescription: String { description }
}

extension Cell: CustomTestStringConvertible {
    public var testDescription: String { description }
}

extension CellAttributes: CustomTestStringConvertible {
    public var testDescription: String { description.isEmpty ? "plain" : description }
}

extension TerminalColor: CustomTestStringConvertible {
    public var testDescription: String { description }
}
