// Every deadline of the package in one heap on the event loop: wait timeouts, stability
// windows, stub delays, teardown graces, bridge exit graces.

extension EventLoop {
    /// Runs `job` on the loop once the `MonotonicClock` reading `deadline` passed (at once, on
    /// the loop's next turn, when it already has). Timers with the same deadline run in the
    /// order they were scheduled.
    @discardableResult
    package func schedule(at deadline: UInt64, _ job: @escaping @Sendable () -> Void) -> Timer {
        let timer = Timer(id: allocateID())
        onLoop { [self] in owned.value.timers.insert(timer.id, deadline: deadline, job: job) }
        return timer
    }

    /// ``schedule(at:_:)`` `delay` from now.
    @discardableResult
    package func schedule(after delay: Duration, _ job: @escaping @Sendable () -> Void) -> Timer {
        schedule(at: MonotonicClock.deadline(after: delay), job)
    }

    /// Cancels a timer: once this reached the loop its job never runs. A timer that already ran
    /// (or is running, seen from another thread) is not affected: owners resolve what a timer
    /// does under their lock, so a late cancel is harmless.
    package func cancel(_ timer: Timer) {
        onLoop { [self] in owned.value.timers.cancel(timer.id) }
    }

    /// The loop's timers: a binary min-heap of (deadline, id) and the jobs by id. A cancelled
    /// timer's heap entry stays until it comes to the top (or the heap is compacted).
    struct TimerHeap {
        private var heap: [(deadline: UInt64, id: UInt64)] = []
        private var jobs: [UInt64: @Sendable () -> Void] = [:]
        /// Ids unscheduled before their insertion reached the loop.
        private var cancelledEarly: Set<UInt64> = []

        /// Live timers.
        var count: Int { jobs.count }
        /// Whether the timer `id` is waiting to run.
        func isScheduled(_ id: UInt64) -> Bool { jobs[id] != nil }
        /// Heap entries, live and cancelled (for the test that cancelled ones do not pile up).
        var entryCount: Int { heap.count }

        mutating func insert(_ id: UInt64, deadline: UInt64, job: @escaping @Sendable () -> Void) {
            if cancelledEarly.remove(id) != nil { return }
            jobs[id] = job
            heap.append((deadline, id))
            siftUp(heap.count - 1)
        }

        mutating func cancel(_ id: UInt64) {
            guard jobs.removeValue(forKey: id) != nil else {
                cancelledEarly.insert(id)
                return
            }
            // Cancelled entries would pile up when timers are re-armed faster than they come
            // due (a wait table re-arming for every new waiter): rebuild when most are dead.
            if heap.count > 64 && heap.count > 4 * jobs.count { compact() }
        }

        /// The earliest deadline of a live timer, dropping dead entries from the top.
        mutating func earliestDeadline() -> UInt64? {
            while let top = heap.first {
                if jobs[top.id] != nil { return top.deadline }
                popTop()
            }
            return nil
        }

        /// Removes and returns the job of the earliest live timer due at `now`.
        mutating func popDue(at now: UInt64) -> (@Sendable () -> Void)? {
            while let top = heap.first, top.deadline <= now {
                popTop()
                if let job = jobs.removeValue(forKey: top.id) { return job }
            }
            return nil
        }

        private mutating func compact() {
            heap.removeAll { jobs[$0.id] == nil }
            for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
        }

        private mutating func popTop() {
            let last = heap.removeLast()
            guard !heap.isEmpty else { return }
            heap[0] = last
            siftDown(0)
        }

        private static func precedes(_ a: (deadline: UInt64, id: UInt64), _ b: (deadline: UInt64, id: UInt64)) -> Bool {
            a.deadline != b.deadline ? a.deadline < b.deadline : a.id < b.id
        }

        private mutating func siftUp(_ start: Int) {
            var child = start
            while child > 0 {
                let parent = (child - 1) / 2
                guard Self.precedes(heap[child], heap[parent]) else { return }
                heap.swapAt(child, parent)
                child = parent
            }
        }

        private mutating func siftDown(_ start: Int) {
            var parent = start
            while true {
                let left = 2 * parent + 1
                guard left < heap.count else { return }
                var smallest = left
                if left + 1 < heap.count, Self.precedes(heap[left + 1], heap[left]) { smallest = left + 1 }
                guard Self.precedes(heap[smallest], heap[parent]) else { return }
                heap.swapAt(smallest, parent)
                parent = smallest
            }
        }
    }
}
