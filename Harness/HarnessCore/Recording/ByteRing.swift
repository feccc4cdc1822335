import Foundation

/// The last bytes of a stream, at most ``limit`` of them, in one buffer: it grows (doubling)
/// up to the limit, then wraps, writing each new chunk over the oldest bytes. Dropping costs
/// nothing, memory stays at the limit however much comes, and ``take()`` hands the buffer to a
/// `Data` without copying it, so a pipe's kept output exists once in memory, not as chunks
/// and then again as their concatenation.
///
/// Not thread-safe: its owner keeps it under a lock (a piped session's `state`).
package final class ByteRing {
    /// The most bytes kept.
    package let limit: Int
    private var buffer = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    /// Where the oldest kept byte is (0 unless the ring has wrapped).
    private var start = 0
    /// How many bytes are kept.
    package private(set) var count = 0
    /// How many bytes were written over (or never kept): the stream's first ones.
    package private(set) var droppedBytes = 0

    /// An empty ring keeping at most `limit` bytes (at least 1).
    package init(limit: Int) {
        self.limit = max(1, limit)
    }

    deinit { buffer.deallocate() }

    /// Adds `bytes` after the kept ones, dropping the oldest past the limit.
    package func append(_ bytes: UnsafeRawBufferPointer) {
        guard var source = bytes.baseAddress, !bytes.isEmpty else { return }
        var length = bytes.count
        if length > limit {
            droppedBytes += length - limit
            source += length - limit
            length = limit
        }
        let needed = min(limit, count + length)
        if buffer.count < needed { grow(to: min(limit, max(needed, buffer.count * 2))) }
        let capacity = buffer.count
        let end = (start + count) % capacity
        let first = min(length, capacity - end)
        (buffer.baseAddress! + end).copyMemory(from: source, byteCount: first)
        if first < length { buffer.baseAddress!.copyMemory(from: source + first, byteCount: length - first) }
        let overflow = max(0, count + length - capacity)
        droppedBytes += overflow
        start = (start + overflow) % capacity
        count = min(capacity, count + length)
    }

    /// A copy of the kept bytes, oldest first.
    package func copy() -> Data {
        var data = Data(capacity: count)
        forEachSegment { data.append(contentsOf: $0) }
        return data
    }

    /// The kept bytes, oldest first, as a `Data` that takes over the buffer (rotated in place,
    /// not copied); the ring is empty afterwards (its dropped count stays).
    package func take() -> Data {
        guard count > 0, let base = buffer.baseAddress else { return Data() }
        if start != 0 {
            // Only a full ring has wrapped: rotate it left by `start` with three reversals.
            let bytes = buffer.bindMemory(to: UInt8.self)
            bytes[0..<start].reverse()
            bytes[start..<count].reverse()
            bytes[0..<count].reverse()
        }
        let data = Data(bytesNoCopy: base, count: count, deallocator: .custom { pointer, _ in pointer.deallocate() })
        buffer = UnsafeMutableRawBufferPointer(start: nil, count: 0)
        start = 0
        count = 0
        return data
    }

    /// Moves the kept bytes to a buffer of `capacity` bytes (before the ring has wrapped).
    private func grow(to capacity: Int) {
        let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
        var offset = 0
        forEachSegment { segment in
            (grown.baseAddress! + offset).copyMemory(from: segment.baseAddress!, byteCount: segment.count)
            offset += segment.count
        }
        buffer.deallocate()
        buffer = grown
        start = 0
    }

    /// The kept bytes in order, as one or two contiguous segments.
    private func forEachSegment(_ body: (UnsafeRawBufferPointer) -> Void) {
        guard count > 0, let base = buffer.baseAddress else { return }
        let first = min(count, buffer.count - start)
        body(UnsafeRawBufferPointer(start: base + start, count: first))
        if first < count { body(UnsafeRawBufferPointer(start: base, count: count - first)) }
    }
}
