// How the event loop waits: epoll on Linux (one system call per change of interest, none per
// turn), poll(2) where epoll is missing (Darwin), rebuilding its set each turn.

import CHarnessSystem

extension EventLoop {
    /// The loop's readiness source. Loop-owned.
    struct Poller {
        /// The token of the loop's own wake-up pipe (ids of watches start at 1).
        static let wakeUpToken: UInt64 = 0
        /// The token of the loop's backstop timer.
        static let backstopToken: UInt64 = .max

        /// The epoll descriptor, or -1 when polling with poll(2).
        private let epoll: Int32
        /// For poll(2): every registered descriptor with its token and interest.
        private var polled: [UInt64: (fd: Int32, interest: Posix.PollEvents)] = [:]
        private var pollSet: [Posix.PollDescriptor] = []
        private var pollTokens: [UInt64] = []

        init(wakeUp: Int32, backstop: Int32) {
            let created = harness_poller_create()
            epoll = created
            add(fd: wakeUp, token: Self.wakeUpToken, interest: .readable)
            if backstop >= 0 { add(fd: backstop, token: Self.backstopToken, interest: .readable) }
        }

        mutating func add(fd: Int32, token: UInt64, interest: Posix.PollEvents) {
            if epoll >= 0 {
                // EBADF (a closed descriptor) or EEXIST would be a bug of the caller; the watch
                // then never fires, and its owner's timeout says so.
                _ = harness_poller_control(epoll, 0, fd, Self.mask(interest), token)
            } else {
                polled[token] = (fd, interest)
            }
        }

        mutating func modify(fd: Int32, token: UInt64, interest: Posix.PollEvents) {
            if epoll >= 0 {
                _ = harness_poller_control(epoll, 1, fd, Self.mask(interest), token)
            } else {
                polled[token] = (fd, interest)
            }
        }

        mutating func remove(fd: Int32, token: UInt64) {
            if epoll >= 0 {
                _ = harness_poller_control(epoll, 2, fd, 0, token)
            } else {
                polled[token] = nil
            }
        }

        /// Waits for events; writes each one's token and HARNESS_POLLER_* mask and returns
        /// their count (0 on timeout, or when interrupted: the loop recomputes its timeout).
        mutating func wait(tokens: inout [UInt64], events: inout [UInt32], timeoutMilliseconds: Int32) -> Int {
            if epoll >= 0 {
                let count = tokens.withUnsafeMutableBufferPointer { tokenBuffer in
                    events.withUnsafeMutableBufferPointer { eventBuffer in
                        harness_poller_wait(
                            epoll, tokenBuffer.baseAddress, eventBuffer.baseAddress, Int32(tokenBuffer.count),
                            timeoutMilliseconds)
                    }
                }
                return max(0, Int(count))
            }
            pollSet.removeAll(keepingCapacity: true)
            pollTokens.removeAll(keepingCapacity: true)
            for (token, entry) in polled {
                pollSet.append(Posix.pollDescriptor(fd: entry.fd, events: entry.interest))
                pollTokens.append(token)
            }
            guard (try? Posix.poll(&pollSet, timeoutMilliseconds: timeoutMilliseconds)) != nil else { return 0 }
            var count = 0
            for (index, entry) in pollSet.enumerated() where !entry.returnedEvents.isEmpty {
                if count == tokens.count {
                    tokens.append(0)
                    events.append(0)
                }
                tokens[count] = pollTokens[index]
                events[count] = Self.mask(returned: entry.returnedEvents)
                count += 1
            }
            return count
        }

        private static func mask(_ interest: Posix.PollEvents) -> UInt32 {
            var mask: UInt32 = 0
            if interest.containsAny(of: .readable) { mask |= UInt32(HARNESS_POLLER_READABLE) }
            if interest.containsAny(of: .writable) { mask |= UInt32(HARNESS_POLLER_WRITABLE) }
            return mask
        }

        private static func mask(returned: Posix.PollEvents) -> UInt32 {
            var mask: UInt32 = 0
            if returned.containsAny(of: .readable) { mask |= UInt32(HARNESS_POLLER_READABLE) }
            if returned.containsAny(of: .writable) { mask |= UInt32(HARNESS_POLLER_WRITABLE) }
            if returned.containsAny(of: .hangUp) { mask |= UInt32(HARNESS_POLLER_HANGUP) }
            if returned.containsAny(of: [.error, .invalid]) { mask |= UInt32(HARNESS_POLLER_ERROR) }
            return mask
        }

        /// A HARNESS_POLLER_* mask as the events a handler gets.
        static func pollEvents(_ mask: UInt32) -> Posix.PollEvents {
            var events: Posix.PollEvents = []
            if mask & UInt32(HARNESS_POLLER_READABLE) != 0 { events.insert(.readable) }
            if mask & UInt32(HARNESS_POLLER_WRITABLE) != 0 { events.insert(.writable) }
            if mask & UInt32(HARNESS_POLLER_HANGUP) != 0 { events.insert(.hangUp) }
            if mask & UInt32(HARNESS_POLLER_ERROR) != 0 { events.insert(.error) }
            return events
        }
    }
}
