import Foundation
import HarnessCore

/// The dates `clock` accepts: ISO 8601 with a time zone, with or without fractional seconds.
public enum FlowClock {
    /// The date `text` names, or nil.
    public static func parse(_ text: String) -> Date? {
        let plain = ISO8601DateFormatter()
        if let date = plain.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }

    /// `date` as `clock` writes it (UTC, seconds).
    public static func format(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }
}
