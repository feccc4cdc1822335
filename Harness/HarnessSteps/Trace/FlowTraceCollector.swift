import Foundation
import HarnessCore
import HarnessSystem
import TerminalEmulator

/// Where the attempts of a run leave their traces, as ``FlowTraceMode`` says, for the report
/// to read when the run is over. Shared by the workers: every method is thread-safe.
///
/// ```swift
/// let traces = FlowTraceCollector(mode: .off)
/// let executor = FlowExecutor(options: .init(artifactsDirectory: "artifacts", traces: traces))
/// // ... run the flows ...
/// let report = RunReport(results: results, traces: traces.traces)
/// ```
public final class FlowTraceCollector: Sendable {
    /// Which attempts keep their trace.
    public let mode: FlowTraceMode
    private let stored = Locked<[String: [Int: FlowTrace]]>([:])

    /// An empty collector.
    public init(mode: FlowTraceMode = .off) {
        self.mode = mode
    }

    /// Keeps `trace` (replacing an earlier one of the same flow and attempt).
    public func add(_ trace: FlowTrace) {
        stored.withLock { $0[trace.path, default: [:]][trace.attempt] = trace }
    }

    /// The traces kept, by flow path, then attempt number.
    public var traces: [String: [Int: FlowTrace]] { stored.withLock { $0 } }
}
