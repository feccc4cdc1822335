/// The states of the DEC/VT500 parser (https://vt100.net/emu/dec_ansi_parser).
public enum ParserState: UInt8, Sendable {
    case ground
    case escape
    case escapeIntermediate
    case csiEntry
    case csiParam
    case csiIntermediate
    case csiIgnore
    case dcsEntry
    case dcsParam
    case dcsIntermediate
    case dcsPassthrough
    case dcsIgnore
    case oscString
    case sosPmApcString
}
