import Dispatch
import Foundation
import TerminalEmulator
import HarnessSystem

/// The session's two threads: the reader, which reads the terminal, feeds the emulator and
/// wakes the waits, and the reaper, which waits for the child; and the exit, published once
/// the child was reaped and its output read to the end.
extension SessionCore {
    // MARK: - Reader thread

    /// How long, after the program was reaped (or terminated), the reader keeps waiting for the
    /// end of its terminal before it publishes the exit anyway. The end comes as soon as every
    /// process holding the terminal closed it, and Linux delivers all the bytes written before
    /// it first (the pty's buffer is flushed before read reports EIO): the exit is then
    /// published with every last word parsed. Only a process that outlives the program and
    /// keeps the terminal open (a background job) makes the reader wait this long.
    static let lingeringTerminalGrace: UInt64 = 500_000_000

    func runReader() {
        let capacity = 64 * 1024
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        var masterAtEnd = false
        // Set once the program was reaped or terminate asked to stop, while the terminal is
        // still open: the uptime at which the reader stops waiting for its end.
        var drainDeadline: UInt64?
        // The poll set, refilled in place each turn: the loop allocates nothing per wake-up.
        var descriptors: [Posix.PollDescriptor] = []
        descriptors.reserveCapacity(2)

        while true {
            let (wantsWrite, stop, reaped) = withLock { (!outgoing.isEmpty, stopRequested, reapedStatus != nil && exitStatus == nil) }
            if stop || reaped {
                let now = DispatchTime.now().uptimeNanoseconds
                if !masterAtEnd { masterAtEnd = readAvailable(buffer, maximumReads: 256) }
                if masterAtEnd || (drainDeadline.map { now >= $0 } ?? false) {
                    if stop { break }
                    publishExitIfNeeded()
                    drainDeadline = nil
                } else if drainDeadline == nil {
                    drainDeadline = now + Self.lingeringTerminalGrace
                }
            }
            descriptors.removeAll(keepingCapacity: true)
            if !masterAtEnd { descriptors.append(Posix.pollDescriptor(fd: master, events: wantsWrite ? .readableOrWritable : .readable)) }
            var timeout: Int32 = -1
            if let drainDeadline {
                let now = DispatchTime.now().uptimeNanoseconds
                timeout = Int32(clamping: (drainDeadline > now ? drainDeadline - now : 0) / 1_000_000 + 1)
            }
            do {
                try loop.wait(&descriptors, timeoutMilliseconds: timeout)
            } catch {
                break  // cannot happen with valid descriptors; leave rather than spin
            }
            if !masterAtEnd {
                let masterEvents = descriptors[0].returnedEvents
                if masterEvents.containsAny(of: .readableOrFailed) {
                    masterAtEnd = readAvailable(buffer, maximumReads: 16)
                }
                if masterEvents.containsAny(of: .writable) { withLock { flushOutgoingLocked() } }
            }
            // The end of the terminal after the child was reaped: every byte was read.
            if masterAtEnd { publishExitIfNeeded() }
        }
        withLock {
            readerFinished = true
            condition.broadcast()
        }
        publishExitIfNeeded()
    }

    /// Reads until the pty has nothing more (EAGAIN) or `maximumReads` chunks were handled.
    /// Returns true at end of file (EIO on Linux once every slave descriptor is closed).
    private func readAvailable(_ buffer: UnsafeMutableRawBufferPointer, maximumReads: Int) -> Bool {
        var reads = 0
        while reads < maximumReads {
            let count: Int?
            do {
                count = try Posix.read(master, into: buffer)
            } catch {
                return true  // EIO: the program side of the terminal is closed
            }
            guard let count else { return false }  // EAGAIN: nothing more for now
            if count == 0 { return true }
            handleOutput(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            reads += 1
        }
        return false
    }

    /// Feeds one chunk of output to the emulator and wakes the waits it may satisfy.
    private func handleOutput(_ bytes: UnsafeRawBufferPointer) {
        condition.lock()
        let now = MonotonicClock.nanoseconds()
        recordingStorage.events.append(.init(time: Double(now &- launchUptime) / 1e9, kind: .output, bytes: Array(bytes)))
        tail.append(bytes)
        terminal.feed(bytes)
        screenGeneration += 1
        lastOutputUptime = now
        let pendingWaits = waiters.conditions()
        rearmStableTimersLocked(pendingWaits, now: now)
        if !outgoing.isEmpty { flushOutgoingLocked() }
        let pending = screenPredicatesLocked(pendingWaits)
        let waitsForOutput = pendingWaits.contains { if case .output = $0.condition.condition { true } else { false } }
        let matched = waitsForOutput ? matchOutputWaitersLocked() : []
        condition.unlock()
        configuration.onOutput?(Array(bytes))
        for (waiter, match) in matched { waiter.resume(returning: .output(match)) }
        evaluate(pending)
    }

    // MARK: - Reaper thread

    /// Called on the reaper thread once the child was reaped.
    func reaped(_ status: ExitStatus) {
        withLock {
            reapedStatus = status
            reaperFinished = true
            condition.broadcast()
            wakeReaderLocked()
        }
    }

    // MARK: - Exit

    /// Publishes the exit once the child was reaped and its output drained.
    func publishExitIfNeeded() {
        condition.lock()
        guard exitStatus == nil, let status = reapedStatus else {
            condition.unlock()
            return
        }
        exitStatus = status
        condition.broadcast()
        let endWaits = endWaitsLocked(exit: status)
        let handlers = exitHandlers
        exitHandlers = []
        condition.unlock()
        for handler in handlers { handler(status) }
        endWaits()
    }

    /// Runs `handler` once when the program has exited (at once if it already has).
    func onExit(_ handler: @escaping @Sendable (ExitStatus) -> Void) {
        let status: ExitStatus? = withLock {
            if let exitStatus { return exitStatus }
            exitHandlers.append(handler)
            return nil
        }
        if let status { handler(status) }
    }
}
