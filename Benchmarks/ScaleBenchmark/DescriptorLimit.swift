#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's limit on open descriptors (`RLIMIT_NOFILE`).
enum DescriptorLimit {
    /// Raises the soft limit to the hard one; returns the soft limit before and after, and the hard limit.
    static func raiseToHard() throws(ScaleBenchmarkError) -> (before: UInt64, after: UInt64, hard: UInt64) {
        var limit = rlimit()
        guard getrlimit(resourceNumber, &limit) == 0 else { throw .system("getrlimit(RLIMIT_NOFILE)", errno: errno) }
        let before = UInt64(limit.rlim_cur)
        if limit.rlim_cur != limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            guard setrlimit(resourceNumber, &limit) == 0 else { throw .system("setrlimit(RLIMIT_NOFILE)", errno: errno) }
        }
        guard getrlimit(resourceNumber, &limit) == 0 else { throw .system("getrlimit(RLIMIT_NOFILE)", errno: errno) }
        return (before, UInt64(limit.rlim_cur), UInt64(limit.rlim_max))
    }

    #if canImport(Glibc)
    private static let resourceNumber = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resourceNumber = RLIMIT_NOFILE
    #endif
}
