/// PNG files of our own (ISO/IEC 15948): an indexed-color image (a `PLTE` of the picture's
/// colors) when it has at most 256 colors, as a terminal screen nearly always does, else 8-bit
/// RGB; rows unfiltered, compressed by ``Deflate``, each chunk with its CRC-32.
package enum PNGEncoder {
    /// The PNG file of `raster`.
    package static func encode(_ raster: Raster) -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let colors = ColorTable(raster.pixels, limit: 256)
        var header = bigEndian(UInt32(raster.width)) + bigEndian(UInt32(raster.height))
        header += [8, colors == nil ? 2 : 3, 0, 0, 0]  // depth 8, RGB or indexed, deflate, no filter method, no interlace
        chunk("IHDR", header, into: &out)
        var rows: [UInt8] = []
        if let colors {
            chunk("PLTE", colors.colors.flatMap(rgb), into: &out)
            rows.reserveCapacity((raster.width + 1) * raster.height)
            for row in 0..<raster.height {
                rows.append(0)  // filter type None
                for col in 0..<raster.width { rows.append(colors.index(of: raster[col, row])) }
            }
        } else {
            rows.reserveCapacity((raster.width * 3 + 1) * raster.height)
            for row in 0..<raster.height {
                rows.append(0)
                for col in 0..<raster.width { rows += rgb(raster[col, row]) }
            }
        }
        chunk("IDAT", Deflate.zlib(rows), into: &out)
        chunk("IEND", [], into: &out)
        return out
    }

    private static func chunk(_ type: String, _ data: [UInt8], into out: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        out += bigEndian(UInt32(data.count))
        out += typeBytes
        out += data
        out += bigEndian(Checksums.crc32(data, continuing: Checksums.crc32(typeBytes)))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func rgb(_ color: UInt32) -> [UInt8] {
        [UInt8(color >> 16 & 0xFF), UInt8(color >> 8 & 0xFF), UInt8(color & 0xFF)]
    }
}

/// The distinct colors of a picture, numbered in the order they first appear.
package struct ColorTable {
    /// The colors, `0xRRGGBB`, by index.
    package private(set) var colors: [UInt32] = []
    private var indices: [UInt32: UInt8] = [:]
    /// The color asked for last and its index: runs of one color skip the dictionary.
    private var last: (color: UInt32, index: UInt8) = (.max, 0)

    /// An empty table.
    package init() {}

    /// The table of `pixels`, or nil when they hold more than `limit` colors.
    package init?(_ pixels: [UInt32], limit: Int) {
        var last: UInt32? = nil
        for pixel in pixels where pixel != last {
            last = pixel
            if indices[pixel] == nil {
                guard colors.count < limit else { return nil }
                add(pixel)
            }
        }
    }

    /// The index of `color`: its own, a new one while fewer than 256 are taken, else the
    /// nearest color's.
    package mutating func index(adding color: UInt32) -> UInt8 {
        if color == last.color { return last.index }
        if let index = indices[color] {
            last = (color, index)
            return index
        }
        guard colors.count < 256 else {
            let nearest = nearestIndex(to: color)
            indices[color] = nearest
            return nearest
        }
        return add(color)
    }

    /// The index of a color of the table.
    package func index(of color: UInt32) -> UInt8 { indices[color] ?? 0 }

    @discardableResult
    private mutating func add(_ color: UInt32) -> UInt8 {
        let index = UInt8(colors.count)
        colors.append(color)
        indices[color] = index
        return index
    }

    private func nearestIndex(to color: UInt32) -> UInt8 {
        func distance(_ a: UInt32, _ b: UInt32) -> Int {
            [16, 8, 0].reduce(0) { sum, shift in
                let d = Int(a >> UInt32(shift) & 0xFF) - Int(b >> UInt32(shift) & 0xFF)
                return sum + d * d
            }
        }
        let best = colors.indices.min { distance(colors[$0], color) < distance(colors[$1], color) } ?? 0
        return UInt8(best)
    }
}
