// Conversions between `Duration` and what system calls and Dispatch take, written once.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

extension Duration {
    /// Whole nanoseconds, 0 for negative durations and `UInt64.max` beyond it.
    package var clampedNanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        if seconds < 0 || (seconds == 0 && attoseconds <= 0) { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return .max }
        let (sum, sumOverflow) = whole.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000))
        return sumOverflow ? .max : sum
    }

    /// Whole milliseconds, truncated (for messages: "no answer within 250 ms"); negative stays negative.
    package var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        if overflow { return seconds < 0 ? .min : .max }
        return whole + attoseconds / 1_000_000_000_000_000
    }

    /// The timeout `poll` takes: milliseconds rounded up (a wait never ends early), 0 for
    /// negative durations, at most `Int32.max`.
    package var pollMilliseconds: Int32 {
        let nanoseconds = clampedNanoseconds
        return Int32(clamping: nanoseconds / 1_000_000 + (nanoseconds % 1_000_000 == 0 ? 0 : 1))
    }

    /// Seconds as a `Double` (0 for negative durations), for recordings and reports.
    package var seconds: Double {
        let (seconds, attoseconds) = components
        return max(0, Double(seconds) + Double(attoseconds) / 1e18)
    }

    /// The duration as a `timespec` (negative durations become zero).
    package var timespecValue: timespec {
        let nanoseconds = clampedNanoseconds
        return .init(tv_sec: Int(clamping: nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    }

    /// The duration as a `timeval` (negative durations become zero), for socket timeouts and `select`.
    package var timevalValue: timeval {
        let microseconds = clampedNanoseconds / 1000
        return .init(tv_sec: Int(clamping: microseconds / 1_000_000), tv_usec: .init(microseconds % 1_000_000))
    }

    /// The interval a Dispatch timer takes: whole nanoseconds (negative durations become zero),
    /// `.never` beyond `Int.max` nanoseconds.
    package var dispatchInterval: DispatchTimeInterval {
        let nanoseconds = clampedNanoseconds
        return nanoseconds > UInt64(Int.max) ? .never : .nanoseconds(Int(nanoseconds))
    }

    /// The time between two `MonotonicClock` readings (zero when `end` is before `start`).
    package static func between(_ start: UInt64, _ end: UInt64) -> Duration {
        .nanoseconds(end > start ? end - start : 0)
    }
}
