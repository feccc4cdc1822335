import Foundation

/// The clock format of the launch protocol (`--harness-clock`, `HARNESS_CLOCK`): an RFC 3339
/// date-time, read strictly so that every host accepts exactly the same texts.
///
/// `YYYY-MM-DDThh:mm:ss[.F](Z|+hh:mm|-hh:mm)`: upper-case `T` and `Z`, a real calendar date
/// (years 0001-9999), hours 00-23, minutes and seconds 00-59 (no leap second), 1 to 9
/// fraction digits, an offset up to 23:59. Nothing before or after it.
public enum LaunchClock {
    /// The date `text` names, or nil when it is not in the format.
    public static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        var index = 0
        func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<(index + count)] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += count
            return value
        }
        func literal(_ character: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == character else { return false }
            index += 1
            return true
        }
        guard let year = digits(4), literal(UInt8(ascii: "-")), let month = digits(2), literal(UInt8(ascii: "-")),
              let day = digits(2), literal(UInt8(ascii: "T")), let hour = digits(2), literal(UInt8(ascii: ":")),
              let minute = digits(2), literal(UInt8(ascii: ":")), let second = digits(2)
        else { return nil }
        guard year >= 1, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour <= 23, minute <= 59, second <= 59
        else { return nil }
        var fraction = 0.0
        if literal(UInt8(ascii: ".")) {
            let start = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            let count = index - start
            guard (1...9).contains(count), let value = Double(String(decoding: bytes[start..<index], as: UTF8.self))
            else { return nil }
            fraction = value / pow(10, Double(count))
        }
        var offset = 0
        if literal(UInt8(ascii: "Z")) {
            offset = 0
        } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let hours = digits(2), literal(UInt8(ascii: ":")), let minutes = digits(2), hours <= 23, minutes <= 59
            else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// `date` in UTC as the harness writes it: `2024-05-01T09:30:00Z`, with milliseconds
    /// (`.250Z`) when it has a fraction of a second.
    public static func format(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        let seconds = date.timeIntervalSince1970
        formatter.formatOptions =
            seconds == seconds.rounded() ? [.withInternetDateTime] : [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
