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

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        let incoming = bytes.count > capacity ? UnsafeRawBufferPointer(rebasing: bytes[(bytes.count - capacity)...]) : bytes
        for byte in incoming {
            let end = (start + count) % capacity
            storage[end] = byte
            if count < capacity { count += 1 } else { start = (start + 1) % capacity }
        }
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
