/// Receives what `TerminalParser` recognises, in order (the "actions" of the vt100.net state machine).
package protocol TerminalPerformer {
    /// A printable character (already decoded from UTF-8; invalid input arrives as U+FFFD).
    mutating func print(_ scalar: Unicode.Scalar)
    /// A run of printable ASCII bytes (0x20-0x7E). The default calls `print` for each byte.
    mutating func printASCII(_ bytes: UnsafeBufferPointer<UInt8>)
    /// A C0 control byte (BEL, BS, HT, LF, VT, FF, CR, SO, SI...).
    mutating func execute(_ control: UInt8)
    /// A complete control sequence `CSI [marker] params [intermediates] final`.
    mutating func csiDispatch(_ parameters: CSIParameters, intermediates: Intermediates, final: UInt8)
    /// A complete escape sequence `ESC [intermediates] final`.
    mutating func escDispatch(intermediates: Intermediates, final: UInt8)
    /// An operating system command `ESC ] payload (BEL | ESC \)`; the payload is capped.
    mutating func oscDispatch(_ payload: [UInt8], bellTerminated: Bool)
    /// The start of a device control string `ESC P params [intermediates] final`.
    mutating func hook(_ parameters: CSIParameters, intermediates: Intermediates, final: UInt8)
    /// One data byte of the current device control string.
    mutating func put(_ byte: UInt8)
    /// The end of the current device control string.
    mutating func unhook()
}

extension TerminalPerformer {
    /// Calls `print` once per byte.
    package mutating func printASCII(_ bytes: UnsafeBufferPointer<UInt8>) {
        for byte in bytes { print(Unicode.Scalar(byte)) }
    }
}
