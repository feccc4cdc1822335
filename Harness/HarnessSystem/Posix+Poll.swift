// poll(2) under the one policy: a signal that interrupts it never shortens or lengthens the
// wait, because EINTR is retried with the timeout that remains.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Posix {
    /// Events asked of and reported by `poll` for one descriptor.
    package struct PollEvents: OptionSet, Sendable, Hashable {
        package let rawValue: Int16
        package init(rawValue: Int16) { self.rawValue = rawValue }

        package static let readable = PollEvents(rawValue: Int16(POLLIN))
        package static let writable = PollEvents(rawValue: Int16(POLLOUT))
        package static let hangUp = PollEvents(rawValue: Int16(POLLHUP))
        package static let error = PollEvents(rawValue: Int16(POLLERR))
        package static let invalid = PollEvents(rawValue: Int16(POLLNVAL))
        /// Hang-up, error or an invalid descriptor: reported whether asked for or not.
        package static let failures: PollEvents = [.hangUp, .error, .invalid]
        /// What a loop asks of a descriptor it reads and has output queued for.
        package static let readableOrWritable: PollEvents = [.readable, .writable]
        /// What tells a reader to read: data, or a failure it reads to find out.
        package static let readableOrFailed: PollEvents = [.readable, .hangUp, .error, .invalid]
        /// Whether any of `other`'s events is in this set (a bit test, not the generic
        /// `SetAlgebra` path another module's caller would take).
        package func containsAny(of other: PollEvents) -> Bool { rawValue & other.rawValue != 0 }
        // Loops use these constants rather than array literals: a literal of this type in another
        // module builds the set through the standard library's unspecialized generic code
        // (`SetAlgebra.init(_:)` with its iterator and metadata lookups), on every turn of the loop.
    }

    /// One entry of a poll set that a loop keeps and refills (`pollfd`).
    package typealias PollDescriptor = pollfd

    /// A poll entry for `fd` (a negative `fd` is skipped by `poll`).
    package static func pollDescriptor(fd: Int32, events: PollEvents) -> PollDescriptor {
        pollfd(fd: fd, events: events.rawValue, revents: 0)
    }

    /// `poll(2)` on `descriptors` in place; returns the number of ready entries (0 on timeout).
    /// `timeoutMilliseconds` of -1 waits without limit. EINTR is retried with the time left.
    @discardableResult
    package static func poll(_ descriptors: inout [PollDescriptor], timeoutMilliseconds: Int32) throws(SystemError) -> Int {
        let deadline = timeoutMilliseconds > 0
            ? MonotonicClock.nanoseconds() + UInt64(timeoutMilliseconds) * 1_000_000 : nil
        var timeout = timeoutMilliseconds
        while true {
            let result = descriptors.withUnsafeMutableBufferPointer {
                libcPoll($0.baseAddress, nfds_t($0.count), timeout)
            }
            if result >= 0 { return Int(result) }
            let saved = errno
            guard saved == EINTR else { throw SystemError(operation: "poll", errno: saved) }
            if let deadline { timeout = MonotonicClock.milliseconds(until: deadline) }
        }
    }

    /// `poll(2)` on the given descriptors; returns the events that occurred on each, in order
    /// (all empty on timeout). `timeoutMilliseconds` of -1 waits without limit.
    package static func poll(
        _ requests: [(fd: Int32, events: PollEvents)], timeoutMilliseconds: Int32
    ) throws(SystemError) -> [PollEvents] {
        var descriptors = requests.map { pollDescriptor(fd: $0.fd, events: $0.events) }
        try poll(&descriptors, timeoutMilliseconds: timeoutMilliseconds)
        return descriptors.map { PollEvents(rawValue: $0.revents) }
    }

    /// `poll(2)` with a `Duration` (nil waits without limit), rounded up to whole milliseconds.
    package static func poll(
        _ requests: [(fd: Int32, events: PollEvents)], timeout: Duration?
    ) throws(SystemError) -> [PollEvents] {
        try poll(requests, timeoutMilliseconds: timeout.map { $0.pollMilliseconds } ?? -1)
    }
}

extension Posix.PollDescriptor {
    /// The events `poll` reported for this entry.
    package var returnedEvents: Posix.PollEvents { Posix.PollEvents(rawValue: revents) }
}
