// The one monotonic clock of the package: deadlines of waits, polls and timers are read from it.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Nanoseconds of a clock that never goes back, the same as `DispatchTime`'s uptime
/// (`CLOCK_MONOTONIC` on Linux, `CLOCK_UPTIME_RAW` on Darwin), so a reading can become a
/// `DispatchTime(uptimeNanoseconds:)` deadline for a Dispatch timer.
package enum MonotonicClock {
    /// The current reading in nanoseconds.
    package static func nanoseconds() -> UInt64 {
        #if canImport(Darwin)
        return Posix.nanoseconds(of: CLOCK_UPTIME_RAW)
        #else
        return Posix.nanoseconds(of: CLOCK_MONOTONIC)
        #endif
    }

    /// The reading `duration` from now, saturating instead of overflowing.
    package static func deadline(after duration: Duration) -> UInt64 {
        let (sum, overflow) = nanoseconds().addingReportingOverflow(duration.clampedNanoseconds)
        return overflow ? .max : sum
    }

    /// Nanoseconds elapsed since the reading `start` (0 if `start` lies ahead).
    package static func nanoseconds(since start: UInt64) -> UInt64 {
        let now = nanoseconds()
        return now > start ? now - start : 0
    }

    /// The time elapsed since the reading `start`.
    package static func elapsed(since start: UInt64) -> Duration {
        .nanoseconds(nanoseconds(since: start))
    }

    /// Whole milliseconds until the reading `deadline`, rounded up so a poll does not wake
    /// just before it; 0 once it passed, at most `Int32.max`.
    package static func milliseconds(until deadline: UInt64) -> Int32 {
        let now = nanoseconds()
        guard deadline > now else { return 0 }
        return Int32(clamping: (deadline - now + 999_999) / 1_000_000)
    }
}
