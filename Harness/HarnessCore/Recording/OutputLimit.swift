import Foundation

/// How much of its output a session keeps: the terminal's recording, each pipe of a piped
/// session, the bridge's events. Each kind keeps its newest bytes up to the limit and drops
/// the oldest past it, so a program that prints without end costs the harness a bounded amount
/// of memory; what was dropped is said (``TerminalRecording/droppedByteCount``, a notice in the
/// trace, a marker in the asciicast).
///
/// The default, 64 MiB a kind, is about a thousand times what an interactive session of a
/// nightly suite prints (tens of KiB to a few MiB), and small enough that a runaway program
/// cannot take a CI runner's memory: a suite runs a few flows at once (one per core), each with
/// at most a terminal recording, two pipes and the bridge's events. `HARNESS_OUTPUT_LIMIT`
/// changes the default for a whole process (`harness run` and Swift tests alike):
///
/// ```sh
/// HARNESS_OUTPUT_LIMIT=256MiB harness run Tests/Flows
/// ```
package enum OutputLimit {
    /// 64 MiB.
    public static let defaultBytes = 64 << 20
    /// The smallest limit accepted (64 KiB): what a failure message and a screen need.
    public static let minimumBytes = 64 << 10
    /// The variable that sets the default of every session of the process.
    public static let environmentVariable = "HARNESS_OUTPUT_LIMIT"

    /// The limit sessions get when their configuration does not set one: `HARNESS_OUTPUT_LIMIT`
    /// when it is set (and valid), else ``defaultBytes``.
    public static let standard: Int = {
        guard let text = ProcessInfo.processInfo.environment[environmentVariable],
              let bytes = try? parse(text) else { return defaultBytes }
        return bytes
    }()

    /// Why a limit was refused.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The text given.
        public let text: String
        /// `output limit "lots": write a size such as 64MiB, 512KiB, 1GiB or a number of bytes (at least 64KiB)`.
        public var description: String {
            "output limit \(text.debugDescription): write a size such as 64MiB, 512KiB, 1GiB or a number of bytes (at least 64KiB)"
        }
    }

    /// Reads `64MiB`, `512KiB`, `1GiB`, or a number of bytes; throws for anything else or less
    /// than ``minimumBytes``.
    public static func parse(_ text: String) throws(ParseError) -> Int {
        let units: [(suffix: String, shift: Int)] = [("GiB", 30), ("MiB", 20), ("KiB", 10), ("", 0)]
        for (suffix, shift) in units where text.hasSuffix(suffix) {
            let digits = text.dropLast(suffix.count)
            guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let number = Int(digits), number > 0,
                  number <= Int.max >> shift else { break }
            let bytes = number << shift
            guard bytes >= minimumBytes else { break }
            return bytes
        }
        throw ParseError(text: text)
    }
}
