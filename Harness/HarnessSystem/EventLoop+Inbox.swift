// What other threads hand the event loop, without a lock: a job is pushed on an atomic stack
// that the loop takes whole, so handing the loop a job (a timer, a watch, a cancellation) from
// inside an owner's lock takes no second lock.

import Synchronization

extension EventLoop {
    /// The jobs handed to the loop and whether it must be woken to run them.
    ///
    /// Pushing is a compare-and-exchange on the top of a linked stack; the loop exchanges the
    /// top for nil and runs the jobs oldest first. Waking follows the store-then-check pattern
    /// on both sides (sequentially consistent): the loop says it is about to wait, then looks
    /// for jobs; a producer pushes, then looks whether the loop waits. One of the two always
    /// sees the other, so a job never waits for the next event.
    final class Inbox: Sendable {
        /// One job on the stack; owned by the stack (retained) until the loop takes it.
        private final class Node {
            let job: @Sendable () -> Void
            var next: UInt = 0

            init(_ job: @escaping @Sendable () -> Void) { self.job = job }
        }

        /// The newest node's address (0: none); an integer because a pointer is not `Sendable`.
        private let top = Atomic<UInt>(0)
        /// The loop is (about to be) blocked in the poller: a job must write the wake-up pipe.
        private let isWaiting = Atomic<Bool>(false)
        /// A byte is in the wake-up pipe already.
        private let woken = Atomic<Bool>(false)

        /// Pushes `job`; returns whether the caller must write the wake-up pipe.
        func push(_ job: @escaping @Sendable () -> Void) -> Bool {
            pushQuietly(job) && claimWakeUp()
        }

        /// Pushes `job` without claiming the wake-up; returns whether the loop is (about to be)
        /// blocked in the poller, so that something must wake it for the job to run. A loop
        /// that is not blocked runs the job before it blocks (``beginWaiting()`` sees it).
        func pushQuietly(_ job: @escaping @Sendable () -> Void) -> Bool {
            let pointer = Unmanaged.passRetained(Node(job)).toOpaque()
            let node = UInt(bitPattern: pointer)
            var expected = top.load(ordering: .relaxed)
            while true {
                Unmanaged<Node>.fromOpaque(pointer).takeUnretainedValue().next = expected
                let (exchanged, original) = top.compareExchange(
                    expected: expected, desired: node, ordering: .sequentiallyConsistent)
                if exchanged { break }
                expected = original
            }
            return isWaiting.load(ordering: .sequentiallyConsistent)
        }

        /// Whether the caller is the one to write the wake-up pipe (no byte is in it yet).
        func claimWakeUp() -> Bool { !woken.exchange(true, ordering: .sequentiallyConsistent) }

        /// Takes every job pushed so far, oldest first (on the loop).
        func takeAll() -> [@Sendable () -> Void] {
            var node = top.exchange(0, ordering: .acquiring)
            var jobs: [@Sendable () -> Void] = []
            while let current = UnsafeMutableRawPointer(bitPattern: node) {
                let taken = Unmanaged<Node>.fromOpaque(current).takeRetainedValue()
                jobs.append(taken.job)
                node = taken.next
            }
            jobs.reverse()
            return jobs
        }

        /// The loop is about to block: returns false (and does not block) when jobs are waiting.
        func beginWaiting() -> Bool {
            isWaiting.store(true, ordering: .sequentiallyConsistent)
            guard top.load(ordering: .sequentiallyConsistent) == 0 else {
                isWaiting.store(false, ordering: .sequentiallyConsistent)
                return false
            }
            return true
        }

        /// The loop woke up.
        func endWaiting() { isWaiting.store(false, ordering: .sequentiallyConsistent) }

        /// The loop drained the wake-up pipe.
        func drainedWakeUp() { woken.store(false, ordering: .sequentiallyConsistent) }

        deinit {
            _ = takeAll()
        }
    }
}
