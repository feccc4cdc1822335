/// The streams the benchmark can feed: `--stream mixed|scroll|dense|all`.
enum BenchmarkStream: String, CaseIterable {
    /// Busy full-screen output: SGR every few words, cursor moves, erases, CJK and emoji.
    case mixed
    /// Line-oriented output that scrolls on nearly every line (see `ScrollHeavyStream`).
    case scroll
    /// An SGR change before almost every word, cursor motion, CJK and emoji, and line feeds
    /// that scroll into the scrollback (see `DenseMixedStream`): SGR-dense mixed output.
    case dense

    /// What the table's heading says the stream is.
    var title: String {
        switch self {
        case .mixed: "mixed ANSI (SGR, cursor moves, erases, CRLF, CJK, emoji)"
        case .scroll: "scroll-heavy lines (seq, logs, compiler output, diffs; plain and SGR, CRLF)"
        case .dense: "SGR-dense mixed (an SGR per word, cursor motion, CJK, emoji, CRLF scrolling into the scrollback)"
        }
    }

    /// The stream's bytes, the same for every run of the benchmark.
    func generate(bytes: Int) -> [UInt8] {
        switch self {
        case .mixed: MixedANSIStream.generate(bytes: bytes, seed: 0x5EED)
        case .scroll: ScrollHeavyStream.generate(bytes: bytes, seed: 0x5C4011)
        case .dense: DenseMixedStream.generate(bytes: bytes, seed: 0xD3115E)
        }
    }
}
