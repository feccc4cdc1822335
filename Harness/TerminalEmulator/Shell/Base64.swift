/// Standard base64 (RFC 4648, `+` and `/`), padding optional: the emulator imports nothing,
/// so OSC 52 payloads are decoded here.
enum Base64 {
    /// The bytes `text` encodes; nil when it is not base64.
    static func decode(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        var body = text
        while body.last == UInt8(ascii: "=") { body.removeLast() }
        guard text.count - body.count <= 2, body.count % 4 != 1 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(body.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for character in body {
            guard let value = sextet(character) else { return nil }
            buffer = buffer << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        return bytes
    }

    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
