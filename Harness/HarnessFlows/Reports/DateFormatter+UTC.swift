import Foundation

extension DateFormatter {
    /// A formatter of `format` (`yyyy-MM-dd HH:mm`) in UTC with the POSIX locale, so that what
    /// the reports and file names show does not depend on the user's time zone or calendar.
    static func utc(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter
    }
}
