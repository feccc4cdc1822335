import Foundation
import HarnessCore

/// Prints one line per flow as it finishes, then the run's summary.
///
/// ```
/// ✓ Tests/Flows/idle.flow (0.42s)
/// ✗ Tests/Flows/error.flow (1.20s): expected "Try again" within 5s
/// ~ Tests/Flows/loaded.flow (flaky, 2 attempts, 0.95s)
/// - Tests/Flows/bridge.flow (skipped): no bridge
/// ```
public struct FlowProgressReporter: Sendable {
    private let write: @Sendable (String) -> Void

    /// Creates a reporter writing lines with `write` (standard output by default).
    public init(write: @escaping @Sendable (String) -> Void = { print($0) }) {
        self.write = write
    }

    /// Writes the line of a finished flow.
    public func flowFinished(_ result: FlowResult) {
        write(Self.line(for: result))
    }

    /// Writes the summary of the run.
    public func runFinished(_ results: [FlowResult]) {
        write(Self.summary(of: results))
    }

    /// The progress line of one flow.
    public static func line(for result: FlowResult) -> String {
        let time = seconds(result.duration)
        let attempts = result.attempts.count
        switch result.status {
        case .passed:
            return "✓ \(result.path) (\(time))"
        case .failed:
            let tries = attempts > 1 ? ", \(attempts) attempts" : ""
            return "✗ \(result.path) (\(time)\(tries)): \(result.lastFailure?.summary ?? "failed")"
        case .flaky:
            return "~ \(result.path) (flaky, \(attempts) attempts, \(time))"
        case .skipped:
            return "- \(result.path) (skipped): \(result.skipReason ?? "")"
        }
    }

    /// The failures in full (sorted by path), the flaky flows, then the line `N passed, M failed...`.
    public static func summary(of results: [FlowResult]) -> String {
        let sorted = results.sorted { $0.path < $1.path }
        var lines: [String] = []
        let failed = sorted.filter { $0.status == .failed }
        if !failed.isEmpty {
            lines.append("")
            lines.append("Failures:")
            for result in failed {
                let position = result.failurePosition.map { "\($0): " } ?? ""
                let message = (result.failureMessage ?? "failed").split(separator: "\n", omittingEmptySubsequences: false)
                lines.append("✗ \(result.path)")
                lines.append("    \(position)\(message.first ?? "")")
                lines += message.dropFirst().map { "    \($0)" }
            }
        }
        let flaky = sorted.filter { $0.status == .flaky }
        if !flaky.isEmpty {
            lines.append("")
            lines.append("Flaky (passed on retry):")
            for result in flaky {
                lines.append("~ \(result.path): attempt 1 failed: \(result.attempts.first?.failure?.summary ?? "")")
            }
        }
        lines.append("")
        lines.append(FlowRunSummary(results).description)
        return lines.joined(separator: "\n")
    }

    /// `0.42s`.
    static func seconds(_ duration: Duration) -> String {
        String(format: "%.2fs", duration.flowSeconds)
    }
}
