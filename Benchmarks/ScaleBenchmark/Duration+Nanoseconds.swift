extension Duration {
    /// The duration in whole nanoseconds (the benchmark's durations are positive and short).
    var nanoseconds: UInt64 {
        UInt64(components.seconds) * 1_000_000_000 + UInt64(components.attoseconds / 1_000_000_000)
    }

    /// The duration in seconds.
    var seconds: Double { Double(nanoseconds) / 1e9 }
}
