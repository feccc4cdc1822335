import Foundation
import HarnessSteps

/// Reading the files the report readers take (`AsciicastReader`, `JUnitReader`).
enum ReportFile {
    /// The bytes of the file at `path`; when it cannot be read, the error `unreadable(path,
    /// reason)` makes (a reader's `.unreadable(path:reason:)` case) is thrown.
    static func contents<Failure: Error>(
        of path: String, orThrow unreadable: (_ path: String, _ reason: String) -> Failure
    ) throws(Failure) -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw unreadable(path, error.localizedDescription)
        }
    }
}
