/// The states of the DEC/VT500 parser (https://vt100.net/emu/dec_ansi_parser).
package enum ParserState: UInt8, Sendable {
    /// Between sequences: printable characters print, controls execute.
    case ground
    /// After ESC.
    case escape
    /// After ESC and an intermediate byte (0x20-0x2F).
    case escapeIntermediate
    /// After CSI (`ESC [`).
    case csiEntry
    /// Reading CSI parameters.
    case csiParam
    /// Reading CSI intermediate bytes.
    case csiIntermediate
    /// Inside a malformed CSI sequence, skipped up to its final byte.
    case csiIgnore
    /// After DCS (`ESC P`).
    case dcsEntry
    /// Reading DCS parameters.
    case dcsParam
    /// Reading DCS intermediate bytes.
    case dcsIntermediate
    /// Passing DCS data to the performer.
    case dcsPassthrough
    /// Inside a malformed DCS string, skipped up to its terminator.
    case dcsIgnore
    /// Collecting an OSC payload (`ESC ]`).
    case oscString
    /// Inside an SOS, PM or APC string, skipped up to its terminator.
    case sosPmApcString
}
