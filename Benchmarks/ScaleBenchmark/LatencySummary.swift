/// The median and the 99th percentile of nanosecond samples, in microseconds.
struct LatencySummary: Sendable {
    let count: Int
    let median: Double
    let p99: Double

    init(_ samples: [UInt64]) {
        precondition(!samples.isEmpty, "no samples")
        let sorted = samples.sorted()
        count = sorted.count
        median = Double(sorted[sorted.count / 2]) / 1000
        p99 = Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]) / 1000
    }
}
