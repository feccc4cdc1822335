import Foundation
import TerminalEmulator
import HarnessSystem

/// What runs on the event loop for a session: reading the terminal (feeding the emulator and
/// waking the waits), writing queued input, the child's exit, published once the child was
/// reaped and its output read to the end, and the end of reading at teardown. Every function
/// here runs on the loop; none blocks.
extension SessionCore {
    /// How long, after the program was reaped (or terminated), the loop keeps waiting for the
    /// end of its terminal before it publishes the exit (or closes the master) anyway. The end
    /// comes as soon as every process holding the terminal closed it, and Linux delivers all
    /// the bytes written before it first (the pty's buffer is flushed before read reports
    /// EIO): the exit is then published with every last word parsed. Only a process that
    /// outlives the program and keeps the terminal open (a background job) makes it wait this
    /// long (``TerminalSession/Configuration/lingeringTerminalGrace``, 500 ms).
    var lingeringTerminalGrace: Duration { configuration.lingeringTerminalGrace }

    // MARK: - Reading and writing

    /// A read shorter than this is taken to have emptied the pty.
    static let smallChunk = 1024

    /// The loop's handler of the master.
    func masterEvents(_ events: Posix.PollEvents) {
        if events.containsAny(of: .readableOrFailed), readAvailable(maximumReads: 16) { return masterEnded() }
        if events.containsAny(of: .writable) { flushOutgoing() }
    }

    /// Reads until the pty has nothing more (EAGAIN) or `maximumReads` chunks were handled.
    /// Returns true at end of file (EIO on Linux once every slave descriptor is closed).
    private func readAvailable(maximumReads: Int) -> Bool {
        LoopReadBuffer.withBuffer { buffer in
            for _ in 0..<maximumReads {
                let count: Int?
                do {
                    count = try Posix.read(master, into: buffer)
                } catch {
                    return true  // EIO: the program side of the terminal is closed
                }
                guard let count else { return false }  // EAGAIN: nothing more for now
                if count == 0 { return true }
                handleOutput(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                // A small chunk (an echo, a prompt) was all there was: no read to learn that
                // the pty is empty (the watch is level-triggered: anything left is reported
                // again). Bulk output comes in chunks of the pty's 4 KiB and is read on.
                if count < Self.smallChunk { return false }
            }
            return false
        }
    }

    /// Feeds one chunk of output to the emulator, publishes what changed, and wakes the waits
    /// it may satisfy.
    private func handleOutput(_ bytes: UnsafeRawBufferPointer) {
        let now = MonotonicClock.nanoseconds()
        let (matched, checks, responses, first) = state.withValue { state in
            let first = !state.wroteOutput
            state.wroteOutput = true
            let heldBefore = state.heldFrame
            state.terminal.feed(bytes)
            // Inside one synchronized frame the screen shown does not change: nothing to check.
            let screenChanged = heldBefore == nil || state.heldFrame != heldBefore
            if screenChanged { state.screenGeneration += 1 }
            if heldBefore != nil || state.heldFrame != nil { updateHeldFrameLimit(&state) }
            state.lastOutputUptime = now
            let responses = state.responses.bytes
            state.responses.bytes.removeAll()
            let pendingWaits = waiters.conditions()
            let checks = screenChanged ? screenChecks(&state, pendingWaits) : nil
            let waitsForOutput = pendingWaits.contains { if case .output = $0.condition.condition { true } else { false } }
            let matched = waitsForOutput ? matchOutputWaiters(&state) : []
            return (matched, checks, responses, first)
        }
        // The output, then the answers it asked for: input typed before this output was
        // recorded when it was written, and input typed after a test saw it can only follow,
        // since the screen that shows it is published below, after it is in the log.
        let askWritable = channel.withLock { channel in
            channel.record(.init(time: Double(now &- launchUptime) / 1e9, kind: .output, bytes: Array(bytes)))
            channel.tail.append(bytes)
            if !responses.isEmpty {
                channel.recordInput(responses, launchUptime: launchUptime)
                channel.outgoing += responses
            }
            return flushOutgoing(&channel)
        }
        state.withValue { publish(&$0) }
        if first { configuration.onFirstOutput?() }
        if let askWritable { setWriteInterest(askWritable) }
        configuration.onOutput?(Array(bytes))
        for (waiter, match) in matched { waiter.resume(returning: .output(match)) }
        evaluate(checks)
    }

    /// The master is writable: writes what is queued.
    private func flushOutgoing() {
        if let wanted = channel.withLock({ flushOutgoing(&$0) }) { setWriteInterest(wanted) }
    }

    /// Writes queued input as far as the pty accepts it. Errors drop the queue: the program is
    /// gone or the terminal closed, so nobody would read it. Returns the write interest the
    /// loop must switch to, when it changes.
    private func flushOutgoing(_ channel: inout Channel) -> Bool? {
        if !channel.outgoing.isEmpty, !channel.isClosed {
            do {
                let written = try Posix.write(master, bytes: channel.outgoing) ?? 0
                channel.outgoing.removeFirst(written)
            } catch {
                channel.outgoing.removeAll()
            }
        }
        let wanted = !channel.outgoing.isEmpty
        guard wanted != channel.writeInterest else { return nil }
        channel.writeInterest = wanted
        return wanted
    }

    /// A caller queued input the pty did not take: watch for writability (a job on the loop,
    /// which decides from the queue as it is then).
    func updateWriteInterest() {
        let wanted = channel.withLock { channel in
            channel.writeInterest = !channel.outgoing.isEmpty
            return channel.writeInterest
        }
        setWriteInterest(wanted)
    }

    private func setWriteInterest(_ wanted: Bool) {
        guard let watch = state.value.watch else { return }
        EventLoop.shared.setInterest(watch, wanted ? .readableOrWritable : .readable)
    }

    // MARK: - The end of the terminal and the exit

    /// End of file on the master: every process holding the terminal closed it, and every
    /// byte was read. The loop stops watching it (it stays open until the teardown: input
    /// sent now fails with the pty's error, as before).
    private func masterEnded() {
        let (watch, timer) = state.withValue { state in
            state.masterAtEnd = true
            defer { state.watch = nil; state.drainTimer = nil }
            return (state.watch, state.drainTimer)
        }
        if let watch { EventLoop.shared.unwatch(watch) }
        if let timer { EventLoop.shared.cancel(timer) }
        settle()
    }

    /// The loop reaped the child (the first handler of `exit`).
    func reaped(_ status: ExitStatus) {
        state.withValue { state in
            state.reapedStatus = status
            publish(&state)
        }
        settle()
    }

    /// The teardown ended the process group: take what the terminal still holds, then close
    /// it (at once at end of file, else after the lingering grace).
    func stopReading() {
        let reading = state.withValue { state in
            state.stopping = true
            return state.watch != nil
        }
        if reading, readAvailable(maximumReads: 256) { return masterEnded() }
        settle()
    }

    /// The lingering grace is over: takes what is there and stops waiting for the end.
    private func drainGraceExpired() {
        let reading = state.withValue { state in
            state.drainTimer = nil
            return state.watch != nil && !state.masterAtEnd
        }
        if reading, readAvailable(maximumReads: 256) { return masterEnded() }
        state.withValue { $0.drainExpired = true }
        settle()
    }

    /// Does what is due now: publish the exit once the child was reaped and the terminal
    /// drained, close the master once stopping and drained, or arm the lingering grace.
    private func settle() {
        let (publish, close, arm) = state.withValue { state in
            let drained = state.masterAtEnd || state.drainExpired
            let publish = drained && state.reapedStatus != nil && state.exitStatus == nil
            let close = drained && state.stopping && !state.isClosed
            let arm = !drained && (state.reapedStatus != nil || state.stopping) && state.drainTimer == nil
            return (publish, close, arm)
        }
        if arm {
            let timer = EventLoop.shared.schedule(after: lingeringTerminalGrace) { [self] in drainGraceExpired() }
            // On the loop: the timer cannot fire before this.
            state.withValue { $0.drainTimer = timer }
        }
        if publish { publishExitIfNeeded() }
        if close { closeMaster() }
    }

    /// Stops watching and closes the master, exactly once (the loop no longer reads it, and
    /// a caller sees the channel closed before it would write), publishes the exit, and
    /// finishes the teardown.
    private func closeMaster() {
        channel.withLock { channel in
            channel.isClosed = true
            channel.outgoing.removeAll()
        }
        let (watch, timer) = state.withValue { state in
            state.isClosed = true
            if let armed = state.heldFrameTimer { EventLoop.shared.cancel(armed.timer) }
            state.heldFrameTimer = nil
            defer { state.watch = nil; state.drainTimer = nil }
            return (state.watch, state.drainTimer)
        }
        if let watch { EventLoop.shared.unwatch(watch) }
        if let timer { EventLoop.shared.cancel(timer) }
        Posix.closeIgnoringErrors(master)
        publishExitIfNeeded()
        // Pending waits were resolved by the exit; the timer has nothing left to do.
        waiters.close()
        termination.finish(state.withValue { state in
            publish(&state)
            return state.exitStatus ?? state.reapedStatus ?? .exited(-1)
        })
    }

    /// Publishes the exit once the child was reaped and its output drained.
    func publishExitIfNeeded() {
        let published = state.withValue { state -> (handlers: [@Sendable (ExitStatus) -> Void], endWaits: () -> Void, ExitStatus)? in
            guard state.exitStatus == nil, let status = state.reapedStatus else { return nil }
            // The program is gone: what it drew last is the final screen, frame ended or not.
            release(&state, because: "at the program's exit")
            state.exitStatus = status
            publish(&state)
            let endWaits = endingWaits(&state, exit: status)
            defer { state.exitHandlers = [] }
            return (state.exitHandlers, endWaits, status)
        }
        guard let (handlers, endWaits, status) = published else { return }
        for handler in handlers { handler(status) }
        endWaits()
    }

    /// Runs `handler` once, on the loop, when the program has exited (at once if it already has).
    func onExit(_ handler: @escaping @Sendable (ExitStatus) -> Void) {
        EventLoop.shared.onLoop { [self] in
            let status = state.withValue { state -> ExitStatus? in
                if let status = state.exitStatus { return status }
                state.exitHandlers.append(handler)
                return nil
            }
            if let status { handler(status) }
        }
    }
}
