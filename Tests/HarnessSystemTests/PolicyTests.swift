// The one syscall policy: EINTR retried (poll keeps its timeout), would-block as a value.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization
import Testing
@testable import HarnessSystem

/// Signals the EINTR test's handler has seen (a global: a C signal handler captures nothing).
private let interruptions = Atomic<Int>(0)

@Suite(.serialized) struct PolicyTests {
    @Test func retryingRepeatsACallThatFailsWithEINTR() throws {
        var calls = 0
        let result = try Posix.retrying("test") { () -> Int32 in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(result == 7)
        #expect(calls == 3)
    }

    @Test func wouldBlockIsAValueAndOtherFailuresThrow() throws {
        var calls = 0
        let wouldBlock = try Posix.retryingUnlessWouldBlock("test") { () -> Int in
            calls += 1
            errno = calls == 1 ? EINTR : EAGAIN
            return -1
        }
        #expect(wouldBlock == nil)
        #expect(calls == 2)
        #expect(throws: SystemError(operation: "test", errno: EBADF)) {
            _ = try Posix.retryingUnlessWouldBlock("test") { () -> Int in
                errno = EBADF
                return -1
            }
        }
    }

    @Test func emptyNonBlockingPipeReadsAsWouldBlock() throws {
        let pipe = try Posix.makePipe(nonBlocking: true)
        defer { Posix.closeIgnoringErrors(pipe.read) }
        var buffer = [UInt8](repeating: 0, count: 16)
        do {
            // The write end is closed exactly once, here, even when a check throws: closing it
            // again later would close whatever another test's thread was given the number for.
            defer { Posix.closeIgnoringErrors(pipe.write) }
            #expect(try Posix.read(pipe.read, into: &buffer) == nil)
            #expect(try Posix.write(pipe.write, bytes: [1, 2, 3]) == 3)
            #expect(try Posix.read(pipe.read, into: &buffer) == 3)
            #expect(try Posix.read(pipe.read, into: &buffer) == nil)
        }
        // A program another test spawned just now holds a copy of the write end until it
        // executes (close-on-exec); end of file comes once no copy is left.
        Posix.waitForSpawnsInFlight()
        #expect(try Posix.read(pipe.read, into: &buffer) == 0, "end of file once the writer is gone")
    }

    @Test func fullNonBlockingPipeWritesAsWouldBlock() throws {
        let pipe = try Posix.makePipe(nonBlocking: true)
        defer { Posix.closeIgnoringErrors(pipe.read); Posix.closeIgnoringErrors(pipe.write) }
        let chunk = [UInt8](repeating: 0x61, count: 4096)
        var total = 0
        // A pipe holds a bounded amount (64 KiB on Linux by default): writing stops with nil.
        while let written = try Posix.write(pipe.write, bytes: chunk) {
            total += written
            try #require(total < 64 * 1024 * 1024, "the pipe never filled")
        }
        #expect(total > 0)
        #expect(try Posix.poll([(pipe.write, .writable)], timeoutMilliseconds: 0) == [[]])
    }

    @Test func nonBlockingListenerWithNoClientAcceptsNothing() throws {
        let listener = try Posix.makeStreamSocket(.ipv4, nonBlocking: true)
        defer { Posix.closeIgnoringErrors(listener) }
        try Posix.bind(listener, .ipv4, host: "127.0.0.1", port: 0)
        try Posix.listen(listener, backlog: 4)
        #expect(try Posix.accept(listener, nonBlocking: true) == nil)
        var buffer = [UInt8](repeating: 0, count: 4)
        let client = try Posix.makeStreamSocket(.ipv4, nonBlocking: false)
        defer { Posix.closeIgnoringErrors(client) }
        try Posix.connect(client, .ipv4, host: "127.0.0.1", port: try Posix.localPort(listener))
        #expect(try Posix.receive(client, into: &buffer, nonBlocking: true) == nil, "nothing sent yet")
    }

    /// A thread in `poll` keeps being interrupted by a signal (a handler without SA_RESTART):
    /// the call neither fails with EINTR nor returns early. The signals are sent for as long as
    /// the poll runs, and the polling thread stays alive until the sender stops, so no sleep
    /// decides anything.
    @Test func pollInterruptedBySignalsStillWaitsItsWholeTimeout() throws {
        var action = sigaction()
        #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = { _ in interruptions.add(1, ordering: .relaxed) }
        #else
        action.__sigaction_u.__sa_handler = { _ in interruptions.add(1, ordering: .relaxed) }
        #endif
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0  // no SA_RESTART: poll is interrupted
        try #require(sigaction(SIGUSR1, &action, nil) == 0)

        let pipe = try Posix.makePipe()
        defer { Posix.closeIgnoringErrors(pipe.read); Posix.closeIgnoringErrors(pipe.write) }
        let timeout = Duration.milliseconds(200)
        let poller = Poller()
        let thread = Thread { [pipe] in
            // Threads may start with signals blocked (the test runner's choice): let SIGUSR1 in.
            var usr1 = sigset_t()
            sigemptyset(&usr1)
            sigaddset(&usr1, SIGUSR1)
            pthread_sigmask(SIG_UNBLOCK, &usr1, nil)
            poller.identity.withLock { $0 = pthread_self() }
            poller.started.signal()
            let start = MonotonicClock.nanoseconds()
            let outcome = Result { () throws(SystemError) in try Posix.poll([(pipe.read, .readable)], timeout: timeout) }
            poller.outcome.withLock { $0 = (outcome, MonotonicClock.elapsed(since: start)) }
            poller.finished.store(true, ordering: .releasing)
            poller.release.wait()  // alive until the sender stops, so no signal targets a dead thread
        }
        let before = interruptions.load(ordering: .relaxed)
        thread.start()
        poller.started.wait()
        let target = try #require(poller.identity.withLock { $0 })
        // A poll that starts its timeout over at each interruption would never end: give up
        // sending after a minute and fail below (the outcome is still missing then).
        let giveUp = MonotonicClock.nanoseconds() + 60_000_000_000
        while !poller.finished.load(ordering: .acquiring), MonotonicClock.nanoseconds() < giveUp {
            pthread_kill(target, SIGUSR1)
            sched_yield()
        }
        poller.release.signal()

        let (outcome, elapsed) = try #require(poller.outcome.withLock { $0 }, "the poll did not return within 60 s of signals")
        #expect(try outcome.get() == [[]], "a timeout: nothing became readable, no EINTR escaped")
        #expect(elapsed >= timeout, "the timeout was honoured across the interruptions")
        #expect(interruptions.load(ordering: .relaxed) > before, "signals reached the polling thread")
    }
}

/// What the polling thread shares with the test.
private final class Poller: Sendable {
    let identity = Locked<pthread_t?>(nil)
    let outcome = Locked<(Result<[Posix.PollEvents], SystemError>, Duration)?>(nil)
    let finished = Atomic<Bool>(false)
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
}
