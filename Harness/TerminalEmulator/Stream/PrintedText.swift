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
    /// The stream's bytes from `startOffset` on, UTF-8.
    private(set) var bytes: ContiguousArray<UInt8> = []
    /// The absolute offset of `bytes[0]`: how many bytes were dropped.
    public private(set) var startOffset = 0

    /// An empty stream keeping at most `capacity` bytes (at least 64).
    public init(capacity: Int = 1 << 20) {
        self.capacity = max(64, capacity)
    }

    /// The absolute offset just past the last byte printed.
    public var endOffset: Int { startOffset + bytes.count }

    // MARK: - Appending

    @inline(__always)
    mutating func append(_ scalar: Unicode.Scalar) {
        let value = scalar.value
        if value < 0x80 {
            bytes.append(UInt8(value))
        } else {
            for unit in UTF8.encode(scalar)! { bytes.append(unit) }
        }
        if bytes.count > capacity { dropOlderHalf() }
    }

    @inline(__always)
    mutating func append(ascii bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes.append(contentsOf: bytes)
        if self.bytes.count > capacity { dropOlderHalf() }
    }

    private mutating func dropOlderHalf() {
        var cut = bytes.count - capacity / 2
        // Never cut a character in two: move to the start of the next one.
        while cut < bytes.count && bytes[cut] & 0xC0 == 0x80 { cut += 1 }
        bytes.removeFirst(cut)
        startOffset += cut
    }

    // MARK: - Reading

    /// The text from absolute offset `offset` (clamped to what is kept) to `end` (default:
    /// the end). An offset inside a character starts at the next one.
    public func text(from offset: Int, to end: Int? = nil) -> String {
        let (lower, upper) = clampedRange(from: offset, to: end)
        return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[lower..<upper]), as: UTF8.self) }
    }

    /// The absolute offsets of the first occurrence of `needle` that lies entirely at or after
    /// `offset` (clamped to what is kept), or nil.
    public func range(of needle: String, from offset: Int) -> Range<Int>? {
        let pattern = Array(needle.utf8)
        guard !pattern.isEmpty else { return nil }
        let (lower, _) = clampedRange(from: offset, to: nil)
        return bytes.withUnsafeBufferPointer { haystack -> Range<Int>? in
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

    /// `from`/`to` turned into indices of `bytes`, on character boundaries.
    private func clampedRange(from offset: Int, to end: Int?) -> (Int, Int) {
        var lower = min(max(0, offset - startOffset), bytes.count)
        while lower < bytes.count && bytes[lower] & 0xC0 == 0x80 { lower += 1 }
        let upper = max(lower, min(bytes.count, (end ?? endOffset) - startOffset))
        return (lower, upper)
    }
}
