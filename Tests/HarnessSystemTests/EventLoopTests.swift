// The one event loop: descriptors, timers, child exits, jobs, all on one thread, each handler
// called only while registered. Every wait here is on an event the test causes; timers are
// checked for order and cancellation, never for how late they fire.

#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import HarnessSystem

@Suite struct EventLoopTests {
    let loop = EventLoop.shared

    /// Resumes the test once `body` has been called `count` times on the loop, with what it
    /// recorded in order.
    final class Recorder<Value: Sendable>: Sendable {
        private let values = Locked<[Value]>([])

        func record(_ value: Value) { values.withLockNotifying { $0.append(value) } }
        var recorded: [Value] { values.withLock { $0 } }

        /// Blocks until `count` values were recorded (at most 30 s: then the check fails).
        func wait(for count: Int) -> [Value] {
            _ = values.wait(until: { $0.count >= count }, deadline: MonotonicClock.deadline(after: .seconds(30)))
            return recorded
        }
    }

    @Test func readableDescriptorCallsItsHandlerOnTheLoopUntilUnwatched() throws {
        let pipe = try Posix.makePipe(nonBlocking: true)
        defer { Posix.closeIgnoringErrors(pipe.write) }
        let received = Recorder<[UInt8]>()
        let box = Locked<EventLoop.Watch?>(nil)
        let watch = loop.watch(pipe.read, for: .readable) { [loop] events in
            if !loop.inLoop { Issue.record("a handler ran off the loop") }
            var buffer = [UInt8](repeating: 0, count: 16)
            let count = (try? Posix.read(pipe.read, into: &buffer)) ?? nil
            if let count, count > 0 { received.record(Array(buffer[0..<count])) }
            if count == 0, let watch = box.withLock({ $0 }) { loop.unwatch(watch, closing: true) }
        }
        box.withLock { $0 = watch }
        _ = try Posix.write(pipe.write, bytes: Array("one".utf8))
        #expect(received.wait(for: 1) == [Array("one".utf8)])
        _ = try Posix.write(pipe.write, bytes: Array("two".utf8))
        #expect(received.wait(for: 2) == [Array("one".utf8), Array("two".utf8)])
    }

    @Test func unwatchedHandlerIsNeverCalledAgainAndClosingClosesOnTheLoop() throws {
        let pipe = try Posix.makePipe(nonBlocking: true)
        defer { Posix.closeIgnoringErrors(pipe.write) }
        let calls = Recorder<Int>()
        let watch = loop.watch(pipe.read, for: .readable) { _ in calls.record(1) }
        let done = Recorder<Bool>()
        loop.unwatch(watch, closing: true) { done.record(true) }
        #expect(done.wait(for: 1) == [true])
        // The read end is closed: writing now fails (no reader), and no handler ran. (A child
        // other tests were spawning meanwhile holds a copy until it executes: wait for those.)
        Posix.waitForSpawnsInFlight()
        #expect(throws: SystemError.self) {
            var byte: UInt8 = 1
            _ = try withUnsafeBytes(of: &byte) { buffer throws(SystemError) in try Posix.writeWithoutSignal(pipe.write, buffer) }
        }
        let marker = Recorder<Bool>()
        loop.execute { marker.record(true) }
        _ = marker.wait(for: 1)
        #expect(calls.recorded.isEmpty)
    }

    @Test func timersRunInDeadlineOrderAndCancelledOnesNever() {
        let fired = Recorder<String>()
        let base = MonotonicClock.nanoseconds()
        // Scheduled out of order, all in the past or near future: order is by deadline, then by
        // scheduling order for equal deadlines.
        loop.execute { [loop] in
            loop.schedule(at: base + 3_000_000) { fired.record("third") }
            let cancelled = loop.schedule(at: base + 2_000_000) { fired.record("cancelled") }
            loop.schedule(at: base + 1_000_000) { fired.record("first") }
            loop.schedule(at: base + 2_000_000) { fired.record("second") }
            loop.cancel(cancelled)
            loop.schedule(at: base + 4_000_000) { fired.record("last") }
        }
        #expect(fired.wait(for: 4) == ["first", "second", "third", "last"])
    }

    @Test func timersScheduledAndCancelledFromAnotherThreadAreGoneFromTheLoop() async {
        // From another thread both calls become jobs, run in order: the timer is inserted and
        // removed (a due one could fire in between: owners resolve under their lock, so a late
        // cancel is harmless; these are an hour away).
        let timers = (0..<200).map { _ in loop.schedule(after: .seconds(3600)) { Issue.record("a cancelled timer ran") } }
        for timer in timers { loop.cancel(timer) }
        let stillScheduled = await loop.submit { [loop] in timers.filter { loop.owned.value.timers.isScheduled($0.id) }.count }
        #expect(stillScheduled == 0)
        // And one scheduled the same way, not cancelled, is there.
        let kept = loop.schedule(after: .seconds(3600)) {}
        let keptIsScheduled = await loop.submit { [loop] in loop.owned.value.timers.isScheduled(kept.id) }
        #expect(keptIsScheduled)
        loop.cancel(kept)
    }

    @Test func manyCancelledTimersDoNotKeepTheHeapGrowing() {
        // Re-arming (cancel, schedule sooner) thousands of times, as a wait table does; the heap
        // is the loop's own type, driven here without a loop (other tests share the loop's).
        var heap = EventLoop.TimerHeap()
        heap.insert(1, deadline: 100, job: {})
        for id in UInt64(2)...10_000 {
            heap.cancel(id - 1)
            heap.insert(id, deadline: 100 + id, job: {})
        }
        #expect(heap.count == 1)
        #expect(heap.entryCount <= 4 * 64)
        #expect(heap.earliestDeadline() == 10_100)
        #expect(heap.popDue(at: 10_099) == nil)
        #expect(heap.popDue(at: 10_100) != nil)
        #expect(heap.earliestDeadline() == nil)
    }

    /// A loop of its own, for the test that holds its thread up.
    static let heldLoop = EventLoop(name: "held-loop-tests")

    /// What became readable while the loop's thread was held up is handled before a timer that
    /// came due meanwhile: an answer that arrived in time is read before its wait's timeout fires.
    @Test func aDescriptorReadyWhileTheLoopWasHeldIsHandledBeforeATimerThatCameDue() throws {
        let loop = Self.heldLoop
        let pipe = try Posix.makePipe(nonBlocking: true)
        defer { Posix.closeIgnoringErrors(pipe.write) }
        let order = Recorder<String>()
        let released = Locked(false)
        // One turn's jobs: hold the thread, then a timer due at once and the pipe's watch.
        loop.execute { released.wait(until: { $0 }) }
        loop.execute { [loop] in
            loop.schedule(at: MonotonicClock.nanoseconds()) { order.record("timer") }
        }
        let watch = loop.watch(pipe.read, for: .readable) { _ in
            var buffer = [UInt8](repeating: 0, count: 16)
            if let count = (try? Posix.read(pipe.read, into: &buffer)) ?? nil, count > 0 { order.record("read") }
        }
        _ = try Posix.write(pipe.write, bytes: [1])
        released.withLockNotifying { $0 = true }
        #expect(order.wait(for: 2) == ["read", "timer"])
        let closed = Recorder<Bool>()
        loop.unwatch(watch, closing: true) { closed.record(true) }
        _ = closed.wait(for: 1)
    }

    @Test func jobsRunInOrderOnTheLoopAndSubmitReturnsTheirResult() async {
        let order = Recorder<Int>()
        for index in 0..<100 { loop.execute { order.record(index) } }
        let onLoop = await loop.submit { [loop] in loop.inLoop }
        #expect(onLoop)
        #expect(!loop.inLoop)
        #expect(order.wait(for: 100) == Array(0..<100))
        #expect(loop.submitAndWait { 41 + 1 } == 42)
    }

    @Test(arguments: [(script: "exit 7", status: Posix.WaitStatus.exited(7)), (script: "kill -9 $$", status: .signaled(SIGKILL))])
    func childExitIsReapedOnTheLoop(script: String, status: Posix.WaitStatus) throws {
        let null = try Posix.openForReading("/dev/null")
        defer { Posix.closeIgnoringErrors(null) }
        let pid = try Posix.spawnWithPipes(
            path: "/bin/sh", arguments: ["sh", "-c", script], environment: [], workingDirectory: nil,
            standardInput: null, standardOutput: null, standardError: null)
        let statuses = Recorder<Posix.WaitStatus>()
        loop.watchExit(of: pid) { statuses.record($0) }
        #expect(statuses.wait(for: 1) == [status])
        // Reaped: no zombie is left under that pid.
        #expect(Posix.reapIfExited(pid) == .exited(-1))
    }

    @Test func whenExitedWaitsForEveryProcessAndTimesOutOtherwise() throws {
        let null = try Posix.openForReading("/dev/null")
        defer { Posix.closeIgnoringErrors(null) }
        // A child that runs until its standard input (a pipe we hold) closes.
        let pipe = try Posix.makePipe(nonBlocking: false)
        let pid = try Posix.spawnWithPipes(
            path: "/bin/sh", arguments: ["sh", "-c", "read line"], environment: [], workingDirectory: nil,
            standardInput: pipe.read, standardOutput: null, standardError: null)
        Posix.closeIgnoringErrors(pipe.read)
        let outcomes = Recorder<Bool>()
        loop.whenExited([pid], timeout: .milliseconds(50)) { outcomes.record($0) }
        #expect(outcomes.wait(for: 1) == [false])
        loop.whenExited([pid], timeout: .seconds(60)) { outcomes.record($0) }
        Posix.closeIgnoringErrors(pipe.write)
        _ = try Posix.waitForTermination(pid)
        #expect(outcomes.wait(for: 2) == [false, true])
        loop.whenExited([pid], timeout: .seconds(60)) { outcomes.record($0) }
        #expect(outcomes.wait(for: 3) == [false, true, true])
    }

    @Test func blockingWorkerRunsJobsInOrderOffTheLoop() async throws {
        let results = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
            for index in 0..<8 {
                group.addTask { (index, await BlockingWorker.shared.run { EventLoop.shared.inLoop }) }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        #expect(results.count == 8)
        #expect(results.values.allSatisfy { !$0 })
        await #expect(throws: SystemError.self) {
            try await BlockingWorker.shared.run { throw SystemError(operation: "test", errno: EIO) }
        }
    }
}
