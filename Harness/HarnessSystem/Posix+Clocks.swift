#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Posix {
    // MARK: - Clocks

    /// The reading of `clock` in nanoseconds (`clock_gettime`, which cannot fail for a clock
    /// the system has: the package reads only those).
    @inline(__always)
    package static func nanoseconds(of clock: clockid_t) -> UInt64 {
        var time = timespec()
        clock_gettime(clock, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
