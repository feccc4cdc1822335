/// The last bytes a program wrote, kept in a fixed-size ring for error messages.
struct OutputTail: Sendable {
    private var storage: [UInt8]
    private var start = 0
    private(set) var count = 0
    let capacity: Int

    init(capacity: Int = 4096) {
        self.capacity = capacity
        storage = [UInt8](repeating: 0, count: capacity)
    }

    /// Adds `bytes` at the end, in at most two copies (the ring's end, then its start), not
    /// byte by byte: this runs for every chunk a program writes.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        let incoming = bytes.count > capacity ? UnsafeRawBufferPointer(rebasing: bytes[(bytes.count - capacity)...]) : bytes
        guard !incoming.isEmpty else { return }
        let end = (start + count) % capacity
        let first = min(incoming.count, capacity - end)
        storage.withUnsafeMutableBytes { ring in
            ring.baseAddress!.advanced(by: end).copyMemory(from: incoming.baseAddress!, byteCount: first)
            if first < incoming.count {
                ring.baseAddress!.copyMemory(from: incoming.baseAddress!.advanced(by: first), byteCount: incoming.count - first)
            }
        }
        let overflow = max(0, count + incoming.count - capacity)
        count = min(capacity, count + incoming.count)
        start = (start + overflow) % capacity
    }

    /// The last `limit` bytes in order.
    func last(_ limit: Int) -> [UInt8] {
        let take = min(limit, count)
        var result: [UInt8] = []
        result.reserveCapacity(take)
        for offset in (count - take)..<count {
            result.append(storage[(start + offset) % capacity])
        }
        return result
    }
}
