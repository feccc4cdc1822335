/// Animated GIF89a files of our own: one global color table (the frames' colors in the order
/// they first appear, at most 256; a further color takes the nearest one's place), the
/// NETSCAPE2.0 extension looping forever, and per frame a delay in hundredths of a second.
/// After the first, a frame holds only the rectangle that changed since the one before (drawn
/// over it), and a frame identical to the one before lengthens its delay instead.
///
/// ```swift
/// var gif = GIFEncoder(width: raster.width, height: raster.height)
/// gif.add(raster, delay: 50)
/// let bytes = gif.encoded()
/// ```
package struct GIFEncoder {
    /// The picture's width in pixels.
    package let width: Int
    /// The picture's height in pixels.
    package let height: Int
    private var colors = ColorTable()
    private var frames: [Frame] = []
    private var previous: Raster?

    private struct Frame {
        var delay: Int
        var left: Int, top: Int, width: Int, height: Int
        var data: [UInt8]
    }

    /// An animation of `width` × `height` pixels with no frame yet.
    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The number of frames so far (identical frames count once).
    package var frameCount: Int { frames.count }

    /// Adds `raster` (cut or padded to the animation's size) shown for `delay` hundredths of a
    /// second (at most 65,535 are written).
    package mutating func add(_ raster: Raster, delay: Int) {
        let raster = raster.fitted(width: width, height: height, color: previous?.pixels.first ?? raster.pixels.first ?? 0)
        let delay = max(0, delay)
        guard let previous else {
            frames.append(frame(of: raster, in: (0, 0, width, height), delay: delay))
            self.previous = raster
            return
        }
        guard let changed = Self.changedRectangle(from: previous, to: raster) else {
            lengthenLast(by: delay)
            return
        }
        frames.append(frame(of: raster, in: changed, delay: delay))
        self.previous = raster
    }

    /// Lengthens the last frame's delay by `delay` hundredths of a second.
    package mutating func lengthenLast(by delay: Int) {
        guard !frames.isEmpty else { return }
        frames[frames.count - 1].delay += max(0, delay)
    }

    /// The GIF file.
    package func encoded() -> [UInt8] {
        var out = Array("GIF89a".utf8)
        var tableBits = 1
        while 1 << tableBits < colors.colors.count { tableBits += 1 }
        out += littleEndian(width) + littleEndian(height)
        out += [0x80 | 0x70 | UInt8(tableBits - 1), 0, 0]  // global table, 8-bit color resolution, its size
        for index in 0..<(1 << tableBits) {
            let color = index < colors.colors.count ? colors.colors[index] : 0
            out += [UInt8(color >> 16 & 0xFF), UInt8(color >> 8 & 0xFF), UInt8(color & 0xFF)]
        }
        out += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [0x03, 0x01, 0x00, 0x00, 0x00]  // loop forever
        for frame in frames {
            // Graphic control: keep the frame in place (disposal 1), its delay, no transparency.
            out += [0x21, 0xF9, 0x04, 0x04] + littleEndian(min(frame.delay, 65_535)) + [0x00, 0x00]
            out += [0x2C] + littleEndian(frame.left) + littleEndian(frame.top) + littleEndian(frame.width) + littleEndian(frame.height)
            out.append(0x00)  // no local color table, not interlaced
            out += frame.data
        }
        out.append(0x3B)
        return out
    }

    // MARK: - Frames

    private mutating func frame(of raster: Raster, in rect: (left: Int, top: Int, width: Int, height: Int), delay: Int) -> Frame {
        var indices: [UInt8] = []
        indices.reserveCapacity(rect.width * rect.height)
        for row in rect.top..<rect.top + rect.height {
            for col in rect.left..<rect.left + rect.width { indices.append(colors.index(adding: raster[col, row])) }
        }
        return Frame(delay: delay, left: rect.left, top: rect.top, width: rect.width, height: rect.height, data: lzwFrame(indices))
    }

    /// The smallest rectangle holding every pixel that differs, or nil when none does.
    private static func changedRectangle(from old: Raster, to new: Raster) -> (left: Int, top: Int, width: Int, height: Int)? {
        var top = Int.max, bottom = -1, left = Int.max, right = -1
        for row in 0..<new.height {
            let base = row * new.width
            var first = -1, last = -1
            for col in 0..<new.width where old.pixels[base + col] != new.pixels[base + col] {
                if first < 0 { first = col }
                last = col
            }
            guard first >= 0 else { continue }
            top = min(top, row)
            bottom = row
            left = min(left, first)
            right = max(right, last)
        }
        guard bottom >= 0 else { return nil }
        return (left, top, right - left + 1, bottom - top + 1)
    }

    /// An image's data: the LZW minimum code size (8) and the codes in sub-blocks of at most
    /// 255 bytes, then the empty block.
    private func lzwFrame(_ indices: [UInt8]) -> [UInt8] {
        let codes = LZW.encode(indices)
        var out: [UInt8] = [8]
        var start = 0
        while start < codes.count {
            let end = min(codes.count, start + 255)
            out.append(UInt8(end - start))
            out += codes[start..<end]
            start = end
        }
        out.append(0)
        return out
    }

    private func littleEndian(_ value: Int) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)]
    }
}

/// GIF's variable-length LZW over 8-bit indices: codes from 9 to 12 bits, a clear code first
/// and whenever the table fills, the end code last.
package enum LZW {
    private static let clear = 256, end = 257, maxCode = 4096

    /// The packed codes of `indices`.
    package static func encode(_ indices: [UInt8]) -> [UInt8] {
        var writer = BitWriter()
        var table = PrefixTable()
        var next = end + 1, codeSize = 9
        writer.write(UInt64(clear), bits: codeSize)
        guard var current = indices.first.map(Int.init) else {
            writer.write(UInt64(end), bits: codeSize)
            writer.flush()
            return writer.bytes
        }
        for byte in indices.dropFirst() {
            if let code = table.code(prefix: current, byte: byte) {
                current = code
                continue
            }
            writer.write(UInt64(current), bits: codeSize)
            if next < maxCode {
                table.add(prefix: current, byte: byte, code: next)
                next += 1
                // The reader adds each entry one code later, so it widens after reading this code.
                if next > 1 << codeSize, codeSize < 12 { codeSize += 1 }
            } else {
                writer.write(UInt64(clear), bits: codeSize)
                table.removeAll()
                (next, codeSize) = (end + 1, 9)
            }
            current = Int(byte)
        }
        writer.write(UInt64(current), bits: codeSize)
        // The reader adds an entry on this last code too, and may widen before the end code.
        if next < maxCode, next + 1 > 1 << codeSize, codeSize < 12 { codeSize += 1 }
        writer.write(UInt64(end), bits: codeSize)
        writer.flush()
        return writer.bytes
    }

    /// The string table: (prefix code, next byte) to code, open addressing.
    private struct PrefixTable {
        private static let size = 8192
        private var keys = [Int32](repeating: -1, count: size)
        private var codes = [UInt16](repeating: 0, count: size)

        func code(prefix: Int, byte: UInt8) -> Int? {
            let key = Int32(prefix << 8 | Int(byte))
            var slot = Self.slot(key)
            while keys[slot] >= 0 {
                if keys[slot] == key { return Int(codes[slot]) }
                slot = (slot + 1) & (Self.size - 1)
            }
            return nil
        }

        mutating func add(prefix: Int, byte: UInt8, code: Int) {
            let key = Int32(prefix << 8 | Int(byte))
            var slot = Self.slot(key)
            while keys[slot] >= 0 { slot = (slot + 1) & (Self.size - 1) }
            keys[slot] = key
            codes[slot] = UInt16(code)
        }

        mutating func removeAll() {
            for index in keys.indices { keys[index] = -1 }
        }

        private static func slot(_ key: Int32) -> Int {
            Int((UInt32(bitPattern: key) &* 2_654_435_761) >> 19) & (size - 1)
        }
    }
}
