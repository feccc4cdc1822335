import Foundation
import HarnessSystem

/// GNU Unifont, the bitmap font pictures of the screen are drawn with: a glyph of 8×16 pixels
/// for every character of the basic plane (16×16 for wide ones), read from its `.hex` file
/// (`CODEPOINT:HEXBITS` a line, sorted by code point; Debian's `unifont` package ships
/// `/usr/share/unifont/unifont.hex`).
///
/// The file is read once per process and searched in place (its lines are sorted), so loading
/// costs one read, not a parse of its 57,000 glyphs.
package struct UnifontFont: Sendable {
    /// The environment variable naming the `.hex` file to use instead of the usual places.
    package static let environmentVariable = "HARNESS_UNIFONT"

    /// Where the font is looked for when ``environmentVariable`` is not set, in order.
    package static let searchPaths = [
        "/usr/share/unifont/unifont.hex",
        "/usr/share/fonts/unifont/unifont.hex",
        "/usr/local/share/unifont/unifont.hex",
        "/opt/homebrew/share/unifont/unifont.hex",
    ]

    /// The file the glyphs come from.
    package let path: String
    private let bytes: [UInt8]

    private static let loaded = Locked<[String: UnifontFont]>([:])

    /// The font at `path` (read once per process), or else at ``environmentVariable``'s path,
    /// or else at the first of ``searchPaths`` that exists.
    package static func load(
        path: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(PictureError) -> UnifontFont {
        let chosen = try locate(path: path, environment: environment)
        if let font = loaded.withLock({ $0[chosen] }) { return font }
        let font = try UnifontFont(reading: chosen)
        loaded.withLock { $0[chosen] = font }
        return font
    }

    /// The path ``load(path:environment:)`` reads: `path`, else ``environmentVariable``'s,
    /// else the first of `searchPaths` that can be read.
    package static func locate(
        path: String?, environment: [String: String], searchPaths: [String] = searchPaths
    ) throws(PictureError) -> String {
        if let path, !path.isEmpty { return path }
        if let path = environment[environmentVariable], !path.isEmpty { return path }
        if let found = searchPaths.first(where: { FileManager.default.isReadableFile(atPath: $0) }) { return found }
        throw .fontNotFound(searched: ["\(environmentVariable) (unset)"] + searchPaths)
    }

    /// Reads the `.hex` file at `path` and checks its first line.
    package init(reading path: String) throws(PictureError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .fontUnreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        if data.starts(with: [0x1F, 0x8B]) {
            throw .notAHexFont(path: path, reason: "it is compressed (gzip): decompress it with gunzip and use the .hex")
        }
        try self.init(bytes: [UInt8](data), path: path)
    }

    /// A font from the text of a `.hex` file; `path` names it in errors.
    package init(bytes: [UInt8], path: String) throws(PictureError) {
        self.path = path
        self.bytes = bytes
        guard let first = Self.line(in: bytes, at: 0), Self.glyph(in: bytes, line: first) != nil else {
            throw .notAHexFont(path: path, reason: "its first line is not CODEPOINT:HEXBITS (32 or 64 hex digits)")
        }
    }

    /// The glyph of `scalar`, or nil when the font has none.
    package func glyph(_ scalar: UInt32) -> UnifontGlyph? {
        var low = 0, high = bytes.count
        while low < high {
            var start = (low + high) / 2
            while start > low, bytes[start - 1] != 0x0A { start -= 1 }
            guard let line = Self.line(in: bytes, at: start) else { return nil }
            if line.code == scalar { return Self.glyph(in: bytes, line: line) }
            if line.code < scalar { low = line.end + 1 } else { high = start }
        }
        return nil
    }

    // MARK: - The file

    private struct Line {
        var code: UInt32
        var bits: Range<Int>
        var end: Int
    }

    /// The line starting at `start`: its code point, where its hex bits are, where it ends.
    private static func line(in bytes: [UInt8], at start: Int) -> Line? {
        var index = start, code: UInt32 = 0
        while index < bytes.count, bytes[index] != 0x3A {
            guard let digit = hexDigit(bytes[index]), index - start < 8 else { return nil }
            code = code << 4 | UInt32(digit)
            index += 1
        }
        guard index < bytes.count, index > start else { return nil }
        let bitsStart = index + 1
        var end = bitsStart
        while end < bytes.count, bytes[end] != 0x0A { end += 1 }
        var bitsEnd = end
        if bitsEnd > bitsStart, bytes[bitsEnd - 1] == 0x0D { bitsEnd -= 1 }
        return Line(code: code, bits: bitsStart..<bitsEnd, end: end)
    }

    private static func glyph(in bytes: [UInt8], line: Line) -> UnifontGlyph? {
        let digits = line.bits.count
        guard digits == 32 || digits == 64 else { return nil }
        let wide = digits == 64
        var rows = [UInt16](repeating: 0, count: UnifontGlyph.height)
        var index = line.bits.lowerBound
        for row in 0..<UnifontGlyph.height {
            var value: UInt16 = 0
            for _ in 0..<(wide ? 4 : 2) {
                guard let digit = hexDigit(bytes[index]) else { return nil }
                value = value << 4 | UInt16(digit)
                index += 1
            }
            rows[row] = wide ? value : value << 8
        }
        return UnifontGlyph(width: wide ? 16 : 8, rows: rows)
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}

/// One glyph of ``UnifontFont``: 16 rows, 8 or 16 pixels wide.
package struct UnifontGlyph: Sendable, Equatable {
    /// Every glyph's height in pixels.
    package static let height = 16
    /// 8, or 16 for a wide glyph.
    package var width: Int
    /// One value a row, top first; the leftmost pixel is the highest bit (bit 15).
    package var rows: [UInt16]

    /// Whether the pixel at column `x` of row `y` is set.
    package func isSet(x: Int, y: Int) -> Bool {
        x >= 0 && x < width && rows[y] & (0x8000 >> UInt16(x)) != 0
    }
}
