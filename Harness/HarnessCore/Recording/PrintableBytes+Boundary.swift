extension PrintableBytes {
    /// The last `limit` bytes of `bytes`, cut so that they start at a boundary: not inside an
    /// escape sequence (CSI, OSC, DCS and the like, followed from the start of `bytes`) nor
    /// inside a UTF-8 character (one sequence longer than the excerpt is shown as it is). Give a few hundred bytes more than `limit`, so that a sequence
    /// cut off at the start of `bytes` has ended before the excerpt begins.
    package static func lastAtBoundary(_ bytes: [UInt8], limit: Int) -> ArraySlice<UInt8> {
        let cut = max(0, bytes.count - limit)
        guard cut > 0 else { return bytes[...] }
        enum State { case ground, escape, csi, string, stringEscape }
        var state = State.ground
        for (index, byte) in bytes.enumerated() {
            if index >= cut, state == .ground, byte & 0xC0 != 0x80 { return bytes[index...] }
            switch state {
            case .ground: if byte == 0x1B { state = .escape }
            case .escape:
                switch byte {
                case UInt8(ascii: "["): state = .csi
                case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "X"), UInt8(ascii: "^"), UInt8(ascii: "_"): state = .string
                case 0x20...0x2F: break  // intermediates: the final byte follows
                default: state = .ground
                }
            case .csi: if (0x40...0x7E).contains(byte) { state = .ground }
            case .string:
                if byte == 0x07 { state = .ground } else if byte == 0x1B { state = .stringEscape }
            case .stringEscape: state = byte == UInt8(ascii: "\\") ? .ground : .string
            }
        }
        return bytes[cut...]  // one sequence fills the whole excerpt: shown as it is
    }
}
