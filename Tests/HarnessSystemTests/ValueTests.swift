// Error descriptions, Duration conversions and the monotonic clock.

import Foundation
import Testing
@testable import HarnessSystem

@Suite struct ValueTests {
    @Test func errorCarriesOperationErrnoAndStrerror() throws {
        let error = SystemError(operation: "read", errno: EBADF)
        #expect(error.message == String(cString: strerror(EBADF)))
        #expect(error.description == "read failed: \(error.message) (errno \(EBADF))")
        #if os(Linux)
        #expect(error.description == "read failed: Bad file descriptor (errno 9)")
        #endif
    }

    @Test func failedCallThrowsTheSavedErrno() throws {
        var buffer = [UInt8](repeating: 0, count: 1)
        #expect(throws: SystemError(operation: "read", errno: EBADF)) { _ = try Posix.read(-1, into: &buffer) }
        #expect(throws: SystemError(operation: "open /nonexistent/file", errno: ENOENT)) {
            _ = try Posix.openForReading("/nonexistent/file")
        }
    }

    @Test func nanoseconds() {
        #expect(Duration.seconds(2).clampedNanoseconds == 2_000_000_000)
        #expect(Duration.nanoseconds(1_500).clampedNanoseconds == 1_500)
        #expect(Duration.milliseconds(-5).clampedNanoseconds == 0)
        #expect(Duration.zero.clampedNanoseconds == 0)
        #expect(Duration.seconds(Int64.max).clampedNanoseconds == .max)
    }

    @Test func pollMillisecondsRoundUp() {
        #expect(Duration.zero.pollMilliseconds == 0)
        #expect(Duration.nanoseconds(1).pollMilliseconds == 1)
        #expect(Duration.milliseconds(1).pollMilliseconds == 1)
        #expect(Duration.microseconds(1_500).pollMilliseconds == 2)
        #expect(Duration.seconds(-1).pollMilliseconds == 0)
        #expect(Duration.seconds(Int64.max).pollMilliseconds == .max)
    }

    @Test func millisecondsAndSeconds() {
        #expect(Duration.milliseconds(250).wholeMilliseconds == 250)
        #expect(Duration.microseconds(1_999).wholeMilliseconds == 1)
        #expect(Duration.milliseconds(-3).wholeMilliseconds == -3)
        #expect(Duration.milliseconds(1_500).seconds == 1.5)
        #expect(Duration.seconds(-2).seconds == 0)
    }

    @Test func dispatchIntervals() {
        #expect(Duration.milliseconds(5).dispatchInterval == .nanoseconds(5_000_000))
        #expect(Duration.seconds(-1).dispatchInterval == .nanoseconds(0))
        #expect(Duration.seconds(Int64.max).dispatchInterval == .never)
    }

    @Test func timespecAndTimeval() {
        let spec = Duration.milliseconds(2_250).timespecValue
        #expect(spec.tv_sec == 2)
        #expect(spec.tv_nsec == 250_000_000)
        let value = Duration.milliseconds(1_500).timevalValue
        #expect(value.tv_sec == 1)
        #expect(value.tv_usec == 500_000)
        #expect(Duration.seconds(-1).timespecValue.tv_sec == 0)
    }

    @Test func clockReadings() {
        #expect(Duration.between(1_000, 4_000) == .nanoseconds(3_000))
        #expect(Duration.between(4_000, 1_000) == .zero)
        let now = MonotonicClock.nanoseconds()
        #expect(MonotonicClock.nanoseconds() >= now, "the clock never goes back")
        #expect(MonotonicClock.milliseconds(until: 0) == 0, "a deadline in the past")
        #expect(MonotonicClock.deadline(after: .seconds(Int64.max)) == .max, "saturates")
        #expect(MonotonicClock.milliseconds(until: .max) == .max)
        #expect(MonotonicClock.nanoseconds(since: .max) == 0)
    }

    @Test func threadIdentity() {
        let here = ThreadIdentity.current
        #expect(here.isCurrent)
        #expect(here == .current)
        let seenElsewhere = SeenElsewhere()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            seenElsewhere.value.withLock { $0 = (here.isCurrent, here == .current) }
            done.signal()
        }
        thread.start()
        done.wait()
        #expect(seenElsewhere.value.withLock { $0 } ?? (true, true) == (false, false))
    }
}

/// What another thread saw of this test's thread identity.
private final class SeenElsewhere: Sendable {
    let value = Locked<(isCurrent: Bool, equal: Bool)?>(nil)
}
