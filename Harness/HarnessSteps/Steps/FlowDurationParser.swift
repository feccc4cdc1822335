/// Parses and prints the durations of flow files and of the runner's options: `500ms`, `5s`,
/// `1.5s`, `2m`.
///
/// A duration is a non-negative decimal number (digits, optionally `.` and more digits) directly
/// followed by a unit: `ms` (milliseconds), `s` (seconds) or `m` (minutes). The value is exact
/// to the nanosecond (no floating point) and at most one day.
///
/// ```swift
/// FlowDurationParser.parse("1.5s") // .milliseconds(1500)
/// ```
public enum FlowDurationParser {
    /// The largest accepted duration (one day), to catch typos.
    public static let maximum: Duration = .seconds(86_400)

    /// The duration `text` denotes, or nil when it is not a valid duration.
    public static func parse(_ text: String) -> Duration? {
        let unitNanoseconds: Int64
        let number: Substring
        if text.hasSuffix("ms") {
            unitNanoseconds = 1_000_000
            number = text.dropLast(2)
        } else if text.hasSuffix("s") {
            unitNanoseconds = 1_000_000_000
            number = text.dropLast()
        } else if text.hasSuffix("m") {
            unitNanoseconds = 60_000_000_000
            number = text.dropLast()
        } else {
            return nil
        }
        let pieces = number.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(pieces.count),
              pieces.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }),
              pieces[0].count <= 9
        else { return nil }
        guard let whole = Int64(pieces[0]) else { return nil }
        var nanoseconds = whole * unitNanoseconds
        if pieces.count == 2 {
            // Fraction digits beyond the nanosecond are not meaningful; reject rather than round.
            var scale = unitNanoseconds
            for digit in pieces[1] {
                scale /= 10
                let value = Int64(digit.wholeNumberValue ?? 0)
                if scale == 0 {
                    if value != 0 { return nil }
                    continue
                }
                nanoseconds += value * scale
            }
        }
        let duration = Duration.nanoseconds(nanoseconds)
        return duration <= maximum ? duration : nil
    }

    /// A short human form: `500ms`, `1.5s`, `2m`, the inverse of ``parse(_:)`` for whole milliseconds.
    public static func format(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        if milliseconds % 60_000 == 0, milliseconds > 0 { return "\(milliseconds / 60_000)m" }
        if milliseconds % 1000 == 0, milliseconds > 0 { return "\(milliseconds / 1000)s" }
        if milliseconds < 1000 { return "\(milliseconds)ms" }
        var fraction = String(milliseconds % 1000)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(milliseconds / 1000).\(fraction)s"
    }
}
