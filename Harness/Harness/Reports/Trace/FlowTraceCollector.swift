import Foundation

/// Where the attempts of a run leave their traces, as ``FlowTraceMode`` says, for the report
/// to read when the run is over. Shared by the workers: every method is thread-safe.
///
/// ```swift
/// let traces = FlowTraceCollector(mode: .off)
/// let executor = FlowExecutor(options: .init(artifactsDirectory: "artifacts", traces: traces))
/// // ... run the flows ...
/// let report = RunReport(results: results, traces: traces.traces)
/// ```
public final class FlowTraceCollector: @unchecked Sendable {
    /// Which attempts keep their trace.
    public let mode: FlowTraceMode
    private let lock = NSLock()
    private var stored: [String: [Int: FlowTrace]] = [:]

    /// An empty collector.
    public init(mode: FlowTraceMode = .off) {
        self.mode = mode
    }

    /// Keeps `trace` (replacing an earlier one of the same flow and attempt).
    public func add(_ trace: FlowTrace) {
        lock.withLock { stored[trace.path, default: [:]][trace.attempt] = trace }
    }

    /// The traces kept, by flow path, then attempt number.
    public var traces: [String: [Int: FlowTrace]] { lock.withLock { stored } }
}
