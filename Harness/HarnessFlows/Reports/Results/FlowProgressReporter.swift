import Foundation
import HarnessCore
import HarnessSteps
import HarnessSystem

/// Prints one line per flow as it finishes, then the run's summary. Given the run's `total`,
/// each line starts with the flow's place among the finished ones:
///
/// ```
/// [1/4] ✓ Tests/Flows/idle.flow (0.42s)
/// [2/4] ✗ Tests/Flows/error.flow (1.20s): expected "Try again" within 5s
/// [3/4] ~ Tests/Flows/loaded.flow (flaky, 2 attempts, 0.95s)
/// [4/4] - Tests/Flows/bridge.flow (skipped): no bridge
/// ```
public struct FlowProgressReporter: Sendable {
    private let write: @Sendable (String) -> Void
    private let total: Int?
    private let finished = Locked(0)

    /// Creates a reporter writing lines with `write` (standard output by default); with
    /// `total`, each line shows its place (`[3/500]`).
    public init(total: Int? = nil, write: @escaping @Sendable (String) -> Void = { print($0) }) {
        self.total = total
        self.write = write
    }

    /// Writes the line of a finished flow.
    public func flowFinished(_ result: FlowResult) {
        guard let total else { return write(Self.line(for: result)) }
        let place = finished.withLock { count in
            count += 1
            return count
        }
        write(Self.line(for: result, place: place, total: total))
    }

    /// The progress line of the `place`-th flow to finish of `total`: `[3/500] ✓ a.flow (0.42s)`.
    public static func line(for result: FlowResult, place: Int, total: Int) -> String {
        "[\(place)/\(total)] " + line(for: result)
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
        case .interrupted:
            return "! \(result.path) (interrupted, \(time)): \(result.interruption?.summary ?? "interrupted")"
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
