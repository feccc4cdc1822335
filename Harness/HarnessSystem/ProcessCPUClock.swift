// The CPU time this process has used: what a benchmark reports beside wall time on a loaded machine.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Nanoseconds of CPU time used by every thread of this process (`CLOCK_PROCESS_CPUTIME_ID`).
package enum ProcessCPUClock {
    /// The current reading in nanoseconds.
    package static func nanoseconds() -> UInt64 {
        Posix.nanoseconds(of: CLOCK_PROCESS_CPUTIME_ID)
    }
}
