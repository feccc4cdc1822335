// The shared readiness loop: woken from other threads, ready descriptors reported, closed once.

import Foundation
import Synchronization
import Testing
@testable import HarnessSystem

@Suite struct ReadinessLoopTests {
    @Test func wakeFromAnotherThreadEndsTheWait() throws {
        let loop = try ReadinessLoop()
        let pipe = try Posix.makePipe()
        defer { Posix.closeIgnoringErrors(pipe.read); Posix.closeIgnoringErrors(pipe.write) }
        let seen = Seen()
        let firstDone = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        loop.start(name: "ReadinessLoopTests") { [pipe] loop in
            // First wait: only woken; the watched pipe has nothing.
            let first = Result { () throws(SystemError) in try loop.wait([(pipe.read, .readable)], timeoutMilliseconds: -1) }
            firstDone.signal()
            // Second wait: the watched pipe becomes readable (the wake-up byte was drained).
            let second = Result { () throws(SystemError) in try loop.wait([(pipe.read, .readable)], timeoutMilliseconds: -1) }
            seen.value.withLock { $0 = (first, second, loop.isLoopThread) }
            done.signal()
        }
        #expect(!loop.isLoopThread)
        loop.wake()
        // Bounded, so a wake-up that never arrives fails the test instead of hanging the suite.
        try #require(firstDone.wait(timeout: .now() + 60) == .success, "wake() did not end the loop's wait within 60 s")
        #expect(try Posix.write(pipe.write, bytes: [1]) == 1)
        try #require(done.wait(timeout: .now() + 60) == .success, "a readable pipe did not end the loop's wait within 60 s")
        let (first, second, onLoopThread) = try #require(seen.value.withLock { $0 })
        #expect(try first.get() == [[]], "woken with nothing ready")
        #expect(try second.get() == [.readable])
        #expect(onLoopThread)
        loop.close()
        loop.close()
        loop.wake()  // after close: nothing happens
    }

    @Test func readyDescriptorIsReportedWithoutWaking() throws {
        let loop = try ReadinessLoop()
        defer { loop.close() }
        let pipe = try Posix.makePipe()
        defer { Posix.closeIgnoringErrors(pipe.read); Posix.closeIgnoringErrors(pipe.write) }
        #expect(try Posix.write(pipe.write, bytes: [1]) == 1)
        var descriptors = [Posix.pollDescriptor(fd: pipe.read, events: .readable)]
        #expect(try loop.wait(&descriptors, timeoutMilliseconds: -1) == false)
        #expect(descriptors.count == 1, "the wake-up entry is removed again")
        #expect(descriptors[0].returnedEvents == .readable)
        loop.wake()
        #expect(try loop.wait(&descriptors, timeoutMilliseconds: 0) == true)
        #expect(try loop.wait(&descriptors, timeoutMilliseconds: 0) == false, "the wake-up was drained")
    }
}

/// What the loop thread saw.
private final class Seen: Sendable {
    let value = Mutex<(Result<[Posix.PollEvents], SystemError>, Result<[Posix.PollEvents], SystemError>, Bool)?>(nil)
}
