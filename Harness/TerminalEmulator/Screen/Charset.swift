/// A character set designated into G0 or G1 (`ESC ( X`, `ESC ) X`).
enum Charset: Equatable {
    case ascii
    /// DEC Special Graphics (`ESC ( 0`): line drawing.
    case decSpecialGraphics
    /// United Kingdom (`ESC ( A`): `#` is `£`.
    case british

    /// The scalar an ASCII byte (0x20-0x7E) stands for in this set.
    @inline(__always)
    func translate(_ byte: UInt8) -> UInt32 {
        switch self {
        case .ascii:
            return UInt32(byte)
        case .british:
            return byte == 0x23 ? 0xA3 : UInt32(byte)
        case .decSpecialGraphics:
            guard byte >= 0x5F, byte <= 0x7E else { return UInt32(byte) }
            return Self.specialGraphics[Int(byte - 0x5F)]
        }
    }

    /// DEC Special Graphics for 0x5F...0x7E as Unicode (the VT100 manual's table).
    static let specialGraphics: [UInt32] = [
        0x00A0, // _ blank
        0x25C6, // ` diamond
        0x2592, // a checkerboard
        0x2409, // b HT
        0x240C, // c FF
        0x240D, // d CR
        0x240A, // e LF
        0x00B0, // f degree
        0x00B1, // g plus/minus
        0x2424, // h NL
        0x240B, // i VT
        0x2518, // j ┘
        0x2510, // k ┐
        0x250C, // l ┌
        0x2514, // m └
        0x253C, // n ┼
        0x23BA, // o scan line 1
        0x23BB, // p scan line 3
        0x2500, // q ─
        0x23BC, // r scan line 7
        0x23BD, // s scan line 9
        0x251C, // t ├
        0x2524, // u ┤
        0x2534, // v ┴
        0x252C, // w ┬
        0x2502, // x │
        0x2264, // y ≤
        0x2265, // z ≥
        0x03C0, // { π
        0x2260, // | ≠
        0x00A3, // } £
        0x00B7, // ~ ·
    ]
}

/// G0/G1 designations and which one is shifted in (SO/SI).
struct CharsetState: Equatable {
    var g0: Charset = .ascii
    var g1: Charset = .ascii
    /// True after SO (G1 in GL), false after SI.
    var shiftedOut = false

    /// The set printable ASCII currently maps through.
    @inline(__always) var active: Charset { shiftedOut ? g1 : g0 }
}
