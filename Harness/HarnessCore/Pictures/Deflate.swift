/// A zlib stream (RFC 1950) of our own: LZ77 matches over a 32 KiB window (hash chains) coded
/// with DEFLATE's fixed Huffman codes (RFC 1951, block type 1), then Adler-32.
///
/// Pictures of a terminal are long runs of a few colors, which back-references to the previous
/// pixel or row capture; the fixed codes cost a few percent against dynamic ones and keep the
/// encoder short. Our own rather than the system zlib: no header package to install, and the
/// same bytes on every machine (a zlib update cannot change a picture's file).
package enum Deflate {
    /// `bytes` as a zlib stream.
    package static func zlib(_ bytes: [UInt8]) -> [UInt8] {
        var writer = BitWriter()
        writer.bytes = [0x78, 0x01]  // deflate, 32 KiB window; no dictionary; check bits
        writer.write(1, bits: 1)  // the final block
        writer.write(1, bits: 2)  // fixed Huffman codes
        compress(bytes, into: &writer)
        writer.writeCode(256, using: literalCode)  // end of block
        writer.flush()
        let adler = Checksums.adler32(bytes)
        writer.bytes += [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
        return writer.bytes
    }

    private static let windowSize = 32_768
    private static let maxChain = 64
    private static let minMatch = 3, maxMatch = 258

    private static func compress(_ input: [UInt8], into writer: inout BitWriter) {
        let hashSize = 1 << 15
        var head = [Int32](repeating: -1, count: hashSize)
        var previous = [Int32](repeating: -1, count: windowSize)
        func hash(_ at: Int) -> Int {
            (Int(input[at]) << 10 ^ Int(input[at + 1]) << 5 ^ Int(input[at + 2])) & (hashSize - 1)
        }
        func insert(_ at: Int) {
            guard at + minMatch <= input.count else { return }
            let key = hash(at)
            previous[at & (windowSize - 1)] = head[key]
            head[key] = Int32(at)
        }
        var position = 0
        while position < input.count {
            var bestLength = 0, bestDistance = 0
            if position + minMatch <= input.count {
                var candidate = Int(head[hash(position)])
                var chain = maxChain
                let limit = min(maxMatch, input.count - position)
                while candidate >= 0, position - candidate <= windowSize, chain > 0 {
                    if input[candidate + bestLength] == input[position + bestLength] || bestLength == 0 {
                        var length = 0
                        while length < limit, input[candidate + length] == input[position + length] { length += 1 }
                        if length > bestLength {
                            (bestLength, bestDistance) = (length, position - candidate)
                            if length == limit { break }
                        }
                    }
                    candidate = Int(previous[candidate & (windowSize - 1)])
                    chain -= 1
                }
            }
            if bestLength >= minMatch {
                writeMatch(length: bestLength, distance: bestDistance, into: &writer)
                for at in position..<position + bestLength { insert(at) }
                position += bestLength
            } else {
                writer.writeCode(Int(input[position]), using: literalCode)
                insert(position)
                position += 1
            }
        }
    }

    // MARK: - Codes

    private static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
                                       4097, 6145, 8193, 12289, 16385, 24577]
    private static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    /// The fixed literal/length code of each symbol 0-287: (code, bit count), RFC 1951 3.2.6.
    private static let literalCode: [(code: Int, bits: Int)] = (0..<288).map { symbol in
        switch symbol {
        case 0...143: (0x30 + symbol, 8)
        case 144...255: (0x190 + symbol - 144, 9)
        case 256...279: (symbol - 256, 7)
        default: (0xC0 + symbol - 280, 8)
        }
    }

    private static func writeMatch(length: Int, distance: Int, into writer: inout BitWriter) {
        var lengthIndex = lengthBase.count - 1
        while lengthBase[lengthIndex] > length { lengthIndex -= 1 }
        writer.writeCode(257 + lengthIndex, using: literalCode)
        writer.write(UInt64(length - lengthBase[lengthIndex]), bits: lengthExtra[lengthIndex])
        var distanceIndex = distanceBase.count - 1
        while distanceBase[distanceIndex] > distance { distanceIndex -= 1 }
        writer.writeHuffman(distanceIndex, bits: 5)
        writer.write(UInt64(distance - distanceBase[distanceIndex]), bits: distanceExtra[distanceIndex])
    }
}

/// Bits packed from the lowest bit of each byte up, as DEFLATE and GIF's LZW both pack them.
package struct BitWriter {
    /// The whole bytes written so far.
    package var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var count = 0

    /// A writer with nothing written.
    package init() {}

    /// Writes the low `bits` bits of `value`, lowest first.
    package mutating func write(_ value: UInt64, bits: Int) {
        guard bits > 0 else { return }
        buffer |= (value & ((1 << UInt64(bits)) - 1)) << UInt64(count)
        count += bits
        while count >= 8 {
            bytes.append(UInt8(buffer & 0xFF))
            buffer >>= 8
            count -= 8
        }
    }

    /// Writes a Huffman code of `bits` bits, its highest bit first (RFC 1951 3.1.1).
    mutating func writeHuffman(_ code: Int, bits: Int) {
        var reversed = 0
        for bit in 0..<bits where code & (1 << bit) != 0 { reversed |= 1 << (bits - 1 - bit) }
        write(UInt64(reversed), bits: bits)
    }

    mutating func writeCode(_ symbol: Int, using table: [(code: Int, bits: Int)]) {
        writeHuffman(table[symbol].code, bits: table[symbol].bits)
    }

    /// Writes the bits left over, padded with zeros to a whole byte.
    package mutating func flush() {
        if count > 0 { bytes.append(UInt8(buffer & 0xFF)) }
        buffer = 0
        count = 0
    }
}
