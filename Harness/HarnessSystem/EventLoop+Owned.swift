// What the event loop's thread alone reads and writes: the watched descriptors with their
// handlers, the timer heap, the poller.

extension EventLoop {
    /// The loop thread's state. Not `Sendable`: only `EventLoop.run` and the registrations it
    /// (or a job on it) makes reach it.
    struct Owned {
        struct Entry {
            let fd: Int32
            var interest: Posix.PollEvents
            let handler: @Sendable (Posix.PollEvents) -> Void
        }

        var poller: Poller
        var entries: [UInt64: Entry] = [:]
        /// Ids unwatched before their registration reached the loop: not registered then.
        var removedEarly: Set<UInt64> = []
        var timers = TimerHeap()

        init(poller: Poller) { self.poller = poller }

        mutating func add(_ id: UInt64, fd: Int32, interest: Posix.PollEvents, handler: @escaping @Sendable (Posix.PollEvents) -> Void) {
            if removedEarly.remove(id) != nil { return }
            entries[id] = Entry(fd: fd, interest: interest, handler: handler)
            poller.add(fd: fd, token: id, interest: interest)
        }

        mutating func modify(_ id: UInt64, interest: Posix.PollEvents) {
            guard let entry = entries[id], entry.interest != interest else { return }
            entries[id]!.interest = interest
            poller.modify(fd: entry.fd, token: id, interest: interest)
        }

        /// Removes the watch; returns its descriptor (nil when it was not registered yet).
        mutating func remove(_ id: UInt64) -> Int32? {
            guard let entry = entries.removeValue(forKey: id) else {
                removedEarly.insert(id)
                return nil
            }
            poller.remove(fd: entry.fd, token: id)
            return entry.fd
        }

        /// The handler of watch `id`, if it is still registered (an earlier handler of the same
        /// turn may have removed it). Called, by the loop, after this access ended: a handler
        /// registers and removes watches itself.
        func handler(of id: UInt64) -> (@Sendable (Posix.PollEvents) -> Void)? { entries[id]?.handler }

        /// How long the poller may block: until the earliest timer (-1: none).
        mutating func timeoutMilliseconds() -> Int32 {
            guard let deadline = timers.earliestDeadline() else { return -1 }
            return MonotonicClock.milliseconds(until: deadline)
        }
    }
}
