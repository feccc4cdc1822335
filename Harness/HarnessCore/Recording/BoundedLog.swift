/// The newest part of a log that would otherwise grow without end: elements are appended, each
/// with its weight in bytes, and the oldest are dropped as long as the newer ones still weigh
/// at least ``limit``. So the log keeps at least the newest `limit` bytes (when that much
/// came), and at most that plus one older element (a read of a pipe or a terminal, 64 KiB at
/// most): a reader that wants exactly the last `limit` bytes cuts the first kept element. Positions are absolute (the first element ever
/// appended is 0), so a cursor stays valid while old elements go; one that points into the
/// dropped part reads from the oldest kept element.
///
/// Dropping is cheap: the kept elements are a window of one array, which is compacted only
/// once the dropped slots are an eighth of it, so memory stays within the limit and an
/// eighth, and each element is moved a few times at most.
package struct BoundedLog<Element> {
    /// The most bytes kept.
    package let limit: Int
    private var storage: [Element] = []
    private var weights: [Int] = []
    /// The first kept slot of `storage` (the ones before it are dropped, awaiting compaction).
    private var head = 0
    /// The weight of the kept elements.
    package private(set) var keptBytes = 0
    /// How many elements were dropped, and their weight.
    package private(set) var droppedCount = 0
    package private(set) var droppedBytes = 0

    /// An empty log keeping at most `limit` bytes.
    package init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// The kept elements, oldest first.
    package var elements: ArraySlice<Element> { storage[head...] }
    /// How many elements are kept.
    package var count: Int { storage.count - head }
    /// The absolute position just past the newest element (how many were ever appended).
    package var endPosition: Int { droppedCount + count }

    /// Appends `element`, then drops the oldest elements while the newer ones weigh at least
    /// the limit. Returns whether anything was dropped for it.
    @discardableResult
    package mutating func append(_ element: Element, weight: Int) -> Bool {
        storage.append(element)
        weights.append(weight)
        keptBytes += weight
        var dropped = false
        while storage.count - head > 1, keptBytes - weights[head] >= limit {
            keptBytes -= weights[head]
            droppedBytes += weights[head]
            droppedCount += 1
            head += 1
            dropped = true
        }
        if head >= 64, head * 8 >= storage.count {
            storage.removeFirst(head)
            weights.removeFirst(head)
            head = 0
        }
        return dropped
    }

    /// The element at absolute `position`, or nil when it was dropped or is not there yet.
    package subscript(position position: Int) -> Element? {
        let index = position - droppedCount
        guard index >= 0, index < count else { return nil }
        return storage[head + index]
    }

    /// `position` moved to the oldest kept element when it points into the dropped part.
    package func clamped(_ position: Int) -> Int { max(position, droppedCount) }
}
