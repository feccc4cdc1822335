/// The private marker and intermediate bytes of an escape or control sequence, stored inline
/// (no allocation). At most `capacity` bytes; longer sequences are ignored by the parser.
///
/// The private marker (`?`, `>`, `<`, `=` right after `CSI`) is kept apart from the
/// intermediates (0x20-0x2F), so `CSI ? 25 h` has marker `?` and no intermediates.
package struct Intermediates: Sendable, Hashable, CustomStringConvertible {
    /// How many intermediate bytes fit.
    package static let capacity = 2

    /// The private marker byte, 0 when there is none.
    package var privateMarker: UInt8
    /// Up to `capacity` intermediate bytes packed little-endian.
    private var packed: UInt16
    /// Number of intermediate bytes.
    package private(set) var count: Int

    /// No marker, no intermediates.
    package init() {
        privateMarker = 0
        packed = 0
        count = 0
    }

    /// Creates intermediates from bytes (test helper); extra bytes beyond `capacity` are dropped.
    package init(privateMarker: UInt8 = 0, _ bytes: [UInt8] = []) {
        self.init()
        self.privateMarker = privateMarker
        for byte in bytes.prefix(Self.capacity) { _ = append(byte) }
    }

    /// Appends an intermediate byte; false when full.
    @inline(__always)
    package mutating func append(_ byte: UInt8) -> Bool {
        guard count < Self.capacity else { return false }
        packed |= UInt16(byte) << (8 * UInt16(count))
        count += 1
        return true
    }

    /// The intermediate byte at `index` (0-based).
    package subscript(index: Int) -> UInt8 { UInt8(truncatingIfNeeded: packed >> (8 * UInt16(index))) }

    /// The first intermediate byte, 0 when there is none.
    package var first: UInt8 { count > 0 ? self[0] : 0 }

    /// True when there is neither a marker nor an intermediate.
    package var isEmpty: Bool { count == 0 && privateMarker == 0 }

    /// The marker (if any) then the intermediates, as text.
    package var description: String {
        var text = privateMarker == 0 ? "" : String(UnicodeScalar(privateMarker))
        for index in 0..<count { text.append(Character(UnicodeScalar(self[index]))) }
        return text
    }
}
