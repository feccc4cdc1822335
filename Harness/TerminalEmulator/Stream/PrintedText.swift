/// What the program printed, as a stream of text: printable characters in the order they were
/// printed, line feeds as "\n", tabs as "\t"; escape sequences, carriage returns and the other
/// controls removed. It reads like the program's output piped to a file, whatever the
/// program did with the cursor, and it goes on across scrolling and the alternate screen.
///
/// Positions are absolute UTF-8 offsets from the first byte ever printed, so an offset stays
/// valid while old text is dropped: the stream keeps the last ``capacity`` bytes at most
/// (dropping the older half at a time, at a character boundary).
///
/// ```swift
/// let terminal = Terminal(cols: 20, rows: 2)
/// terminal.feed("a\r\n\u{1B}[31mb\u{1B}[m\r\nc")
/// terminal.printedText.text(from: 0)   // "a\nb\nc"
/// ```
public struct PrintedText: Sendable, Equatable {
    /// The most bytes kept (1 MiB by default).
    public let capacity: Int
    /// The stream's bytes from `startOffset` on (UTF-8) in `storage[0..<used]`, then spare room:
    /// an append writes into the spare room through one pointer (no per-byte `append`, no
    /// generic `append(contentsOf:)`), which is most of what printing costs besides the screen.
    private var storage: ContiguousArray<UInt8> = []
    /// How many bytes of `storage` hold the stream.
    private var used = 0
    /// The absolute offset of the first byte kept: how many bytes were dropped.
    public private(set) var startOffset = 0

    /// An empty stream keeping at most `capacity` bytes (at least 64).
    public init(capacity: Int = 1 << 20) {
        self.capacity = max(64, capacity)
    }

    /// The absolute offset just past the last byte printed.
    public var endOffset: Int { startOffset + used }

    public static func == (lhs: PrintedText, rhs: PrintedText) -> Bool {
        guard lhs.capacity == rhs.capacity, lhs.startOffset == rhs.startOffset, lhs.used == rhs.used else { return false }
        return lhs.withBytes { left in rhs.withBytes { right in left.elementsEqual(right) } }
    }

    // MARK: - Appending

    /// Appends one scalar, UTF-8 encoded.
    @inline(__always)
    mutating func append(_ scalar: Unicode.Scalar) {
        let value = scalar.value
        let length = value < 0x80 ? 1 : value < 0x800 ? 2 : value < 0x10000 ? 3 : 4
        let start = used
        if start + length > storage.count { makeRoom(for: length) }
        storage.withUnsafeMutableBufferPointer { buffer in
            let out = buffer.baseAddress! + start
            switch length {
            case 1:
                out[0] = UInt8(truncatingIfNeeded: value)
            case 2:
                out[0] = 0xC0 | UInt8(truncatingIfNeeded: value >> 6)
                out[1] = 0x80 | UInt8(truncatingIfNeeded: value & 0x3F)
            case 3:
                out[0] = 0xE0 | UInt8(truncatingIfNeeded: value >> 12)
                out[1] = 0x80 | UInt8(truncatingIfNeeded: (value >> 6) & 0x3F)
                out[2] = 0x80 | UInt8(truncatingIfNeeded: value & 0x3F)
            default:
                out[0] = 0xF0 | UInt8(truncatingIfNeeded: value >> 18)
                out[1] = 0x80 | UInt8(truncatingIfNeeded: (value >> 12) & 0x3F)
                out[2] = 0x80 | UInt8(truncatingIfNeeded: (value >> 6) & 0x3F)
                out[3] = 0x80 | UInt8(truncatingIfNeeded: value & 0x3F)
            }
        }
        used = start + length
        if used > capacity { dropOlderHalf() }
    }

    /// Appends a run of ASCII bytes.
    @inline(__always)
    mutating func append(ascii bytes: UnsafeBufferPointer<UInt8>) {
        let count = bytes.count
        guard count > 0, let source = bytes.baseAddress else { return }
        let start = used
        if start + count > storage.count { makeRoom(for: count) }
        storage.withUnsafeMutableBufferPointer { buffer in
            (buffer.baseAddress! + start).update(from: source, count: count)
        }
        used = start + count
        if used > capacity { dropOlderHalf() }
    }

    /// Grows `storage` so that `length` more bytes fit after `used`: doubling, up to a little
    /// more than the capacity (the stream never holds more than that between appends).
    private mutating func makeRoom(for length: Int) {
        let needed = used + length
        let grown = max(needed, min(max(storage.count * 2, 256), capacity + 8))
        storage.append(contentsOf: repeatElement(0, count: grown - storage.count))
    }

    private mutating func dropOlderHalf() {
        var cut = used - capacity / 2
        // Never cut a character in two: move to the start of the next one.
        while cut < used && storage[cut] & 0xC0 == 0x80 { cut += 1 }
        let kept = used - cut
        storage.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.update(from: buffer.baseAddress! + cut, count: kept)
        }
        used = kept
        startOffset += cut
    }

    /// The kept bytes.
    private func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try storage.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[0..<used])) }
    }

    // MARK: - Reading

    /// The text from absolute offset `offset` (clamped to what is kept) to `end` (default:
    /// the end). An offset inside a character starts at the next one.
    public func text(from offset: Int, to end: Int? = nil) -> String {
        let (lower, upper) = clampedRange(from: offset, to: end)
        return withBytes { String(decoding: UnsafeBufferPointer(rebasing: $0[lower..<upper]), as: UTF8.self) }
    }

    /// The absolute offsets of the first occurrence of `needle` that lies entirely at or after
    /// `offset` (clamped to what is kept), or nil.
    public func range(of needle: String, from offset: Int) -> Range<Int>? {
        let pattern = Array(needle.utf8)
        guard !pattern.isEmpty else { return nil }
        let (lower, _) = clampedRange(from: offset, to: nil)
        return withBytes { haystack -> Range<Int>? in
            let first = pattern[0], length = pattern.count
            var index = lower
            let last = haystack.count - length
            while index <= last {
                if haystack[index] == first {
                    var matched = 1
                    while matched < length && haystack[index + matched] == pattern[matched] { matched += 1 }
                    if matched == length { return (startOffset + index)..<(startOffset + index + length) }
                }
                index += 1
            }
            return nil
        }
    }

    /// `from`/`to` turned into indices of the kept bytes, on character boundaries.
    private func clampedRange(from offset: Int, to end: Int?) -> (Int, Int) {
        withBytes { bytes in
            var lower = min(max(0, offset - startOffset), bytes.count)
            while lower < bytes.count && bytes[lower] & 0xC0 == 0x80 { lower += 1 }
            let upper = max(lower, min(bytes.count, (end ?? endOffset) - startOffset))
            return (lower, upper)
        }
    }
}
