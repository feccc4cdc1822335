/// Bytes received on a connection and not yet consumed by the parser.
struct InputBuffer {
    private(set) var storage: [UInt8] = []
    private(set) var start = 0

    /// Unconsumed byte count.
    var count: Int { storage.count - start }

    /// Whether nothing is left to parse.
    var isEmpty: Bool { start == storage.count }

    /// Appends received bytes.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if start > 0 && start == storage.count {
            storage.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 4096 && start * 2 > storage.count {
            storage.removeSubrange(0..<start)
            start = 0
        }
        storage.append(contentsOf: bytes)
    }

    /// Appends bytes (tests, fuzzing).
    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// The unconsumed byte at `offset` from the start.
    subscript(offset: Int) -> UInt8 { storage[start + offset] }

    /// Unconsumed bytes `range` (relative to the start) as an array.
    func bytes(_ range: Range<Int>) -> ArraySlice<UInt8> {
        storage[(start + range.lowerBound)..<(start + range.upperBound)]
    }

    /// Offset of the first `byte` at or after `from`, or nil.
    func firstIndex(of byte: UInt8, from: Int) -> Int? {
        guard from < count else { return nil }
        return storage.withUnsafeBufferPointer { buffer -> Int? in
            var index = start + from
            let end = storage.count
            while index < end {
                if buffer[index] == byte { return index - start }
                index += 1
            }
            return nil
        }
    }

    /// Drops `count` bytes from the front.
    mutating func consume(_ count: Int) {
        start += count
        if start == storage.count {
            storage.removeAll(keepingCapacity: storage.capacity <= 1 << 20)
            start = 0
        }
    }

    /// Forgets everything.
    mutating func removeAll() {
        storage.removeAll()
        start = 0
    }
}
