/// How many cells a scalar takes, from the generated `CharacterWidthTable`.
enum CharacterWidth {
    /// Not shown at all.
    static let zero: UInt8 = 0
    /// Joins the previous cell (combining marks, ZWJ, variation selectors).
    static let combining: UInt8 = 3

    /// Width class of every BMP scalar (0, 1, 2 or 3), built once from the ranges.
    static let basicPlane: [UInt8] = {
        var table = [UInt8](repeating: 1, count: 0x10000)
        for index in 0..<0x20 { table[index] = 0 }
        for packed in CharacterWidthTable.packedRanges {
            let start = Int(packed >> 32)
            guard start < 0x10000 else { break }
            let end = min(Int((packed & 0xFFFF_FFFF) >> 2), 0xFFFF)
            let kind = UInt8(packed & 3)
            for scalar in start...end { table[scalar] = kind }
        }
        return table
    }()

    /// The width class of a scalar: 0 zero width, 1 narrow, 2 wide, 3 combining.
    static func of(_ scalar: UInt32) -> UInt8 {
        if scalar < 0x10000 { return basicPlane[Int(scalar)] }
        return astral(scalar)
    }

    /// Binary search in the ranges for scalars outside the BMP.
    static func astral(_ scalar: UInt32) -> UInt8 {
        let ranges = CharacterWidthTable.packedRanges
        var low = 0, high = ranges.count - 1
        while low <= high {
            let mid = (low + high) / 2
            let packed = ranges[mid]
            let start = UInt32(packed >> 32)
            let end = UInt32((packed & 0xFFFF_FFFF) >> 2)
            if scalar < start {
                high = mid - 1
            } else if scalar > end {
                low = mid + 1
            } else {
                return UInt8(packed & 3)
            }
        }
        return 1
    }
}
