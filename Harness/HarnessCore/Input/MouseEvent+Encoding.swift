import TerminalEmulator

extension MouseEvent {
    /// The bytes xterm sends for this event when the program enabled `tracking` with
    /// `encoding`, or nil when xterm sends nothing for it in that mode (a release in X10 mode,
    /// motion in mode 1000, motion without a button in mode 1002, the wheel in X10 mode).
    ///
    /// - legacy: `CSI M` then three bytes, 32 + the button code, 32 + column, 32 + row
    ///   (1-based), so a column or row past 223 cannot be sent;
    /// - UTF-8 (1005): the same, each value from 128 on as two UTF-8 bytes (up to 2047,
    ///   column or row 2015);
    /// - SGR (1006): `CSI < code ; column ; row M`, a release ending in `m` and keeping its
    ///   button number (legacy forms send button code 3 for every release);
    /// - SGR-Pixels (1016): the same with the pixel in the middle of the cell instead of the
    ///   cell (``CellPixelSize/reportedPixel(row:col:)``: 10x20 pixels a cell);
    /// - urxvt (1015): `CSI 32+code ; column ; row M`.
    ///
    /// The button code is 0, 1, 2 for left, middle, right, 3 for a legacy release, 64 and 65
    /// for the wheel, plus 32 for motion (3 + 32 when no button is held), plus 4, 8, 16 for
    /// shift, alt and control (X10 mode sends no modifiers).
    /// - Throws: ``MouseError/reportingOff(gesture:screen:)`` when tracking is off;
    ///   ``MouseError/superNotReported(gesture:)`` when Super is held;
    ///   ``MouseError/unencodable(position:encoding:limit:)`` when the cell cannot be written.
    package func encoded(tracking: MouseTracking, encoding: MouseEncoding) throws(MouseError) -> [UInt8]? {
        guard tracking != .off else { throw .reportingOff(gesture: "send \(self)", screen: "") }
        guard !modifiers.contains(.super) else { throw .superNotReported(gesture: "send \(self)") }
        guard let code = buttonCode(tracking: tracking, encoding: encoding) else { return nil }
        // 1-based in the report; checked before adding, so no position can overflow.
        let limit = encoding.coordinateLimit
        guard (0..<limit).contains(position.col), (0..<limit).contains(position.row) else {
            throw .unencodable(position: position, encoding: encoding, limit: limit)
        }
        let column = position.col + 1
        let row = position.row + 1
        let csi: [UInt8] = [0x1b, UInt8(ascii: "[")]
        switch encoding {
        case .sgr:
            let final = isRelease ? "m" : "M"
            return csi + Array("<\(code);\(column);\(row)\(final)".utf8)
        case .sgrPixels:
            let final = isRelease ? "m" : "M"
            let pixel = CellPixelSize.standard.reportedPixel(row: position.row, col: position.col)
            return csi + Array("<\(code);\(pixel.x);\(pixel.y)\(final)".utf8)
        case .urxvt:
            return csi + Array("\(32 + code);\(column);\(row)M".utf8)
        case .legacy:
            return csi + [UInt8(ascii: "M"), UInt8(32 + code), UInt8(32 + column), UInt8(32 + row)]
        case .utf8:
            return csi + [UInt8(ascii: "M")] + Self.utf8(32 + code) + Self.utf8(32 + column) + Self.utf8(32 + row)
        }
    }

    /// Whether the mode reports this kind of event at all.
    package func isReported(by tracking: MouseTracking) -> Bool {
        switch (tracking, action) {
        case (.off, _): return false
        case (.x10, .press): return true
        case (.x10, _): return false
        case (.normal, .motion): return false
        case (.buttonEvent, .motion(nil)): return false
        default: return true
        }
    }

    private var isRelease: Bool {
        if case .release = action { return true }
        return false
    }

    /// The button code before the encoding's offset, or nil when the mode does not report the event.
    private func buttonCode(tracking: MouseTracking, encoding: MouseEncoding) -> Int? {
        guard isReported(by: tracking) else { return nil }
        if tracking == .x10, case .press(let button) = action { return Self.number(button) }
        var code = modifiers.rawValue << 2
        switch action {
        case .press(let button): code += Self.number(button)
        case .release(let button): code += encoding == .sgr || encoding == .sgrPixels ? Self.number(button) : 3
        case .motion(let button): code += 32 + (button.map(Self.number) ?? 3)
        case .wheelUp: code += 64
        case .wheelDown: code += 65
        }
        return code
    }

    private static func number(_ button: MouseButton) -> Int {
        switch button {
        case .left: return 0
        case .middle: return 1
        case .right: return 2
        }
    }

    /// One value of the 1005 encoding: a byte below 128, else two UTF-8 bytes.
    private static func utf8(_ value: Int) -> [UInt8] {
        value < 128 ? [UInt8(value)] : [UInt8(0xC0 | (value >> 6)), UInt8(0x80 | (value & 0x3F))]
    }
}

extension MouseEncoding {
    /// The largest 1-based column or row the encoding can carry: 223 for legacy bytes
    /// (255 - 32), 2015 for UTF-8 (2047 - 32), no practical limit for SGR and urxvt.
    package var coordinateLimit: Int {
        switch self {
        case .legacy: return 255 - 32
        case .utf8: return 2047 - 32
        case .sgr, .urxvt: return Int(Int32.max)
        case .sgrPixels: return Int(Int32.max) / CellPixelSize.standard.height
        }
    }
}
