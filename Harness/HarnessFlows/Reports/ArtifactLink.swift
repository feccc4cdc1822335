import HarnessSteps
/// The rule for the report pages' links to a flow's files (its recording, screens, journal):
/// a link is a relative path that stays inside the report's folder. A path that is absolute or
/// climbs out with `..` (after `a/../b` is resolved to `b`) is no link: the pages leave it out,
/// and `harness merge-reports`, which reads the paths from shards it does not trust, says so.
package enum ArtifactLink {
    /// `path` normalized (`.` and empty components removed, `a/../` resolved) when it is
    /// relative and stays inside its folder; nil otherwise (absolute, `..` past the folder,
    /// empty, or holding a NUL or a backslash, which browsers read as a slash).
    package static func inside(_ path: String) -> String? {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("\\"), !path.contains("\0") else { return nil }
        var kept: [Substring] = []
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            case "..":
                guard !kept.isEmpty else { return nil }
                kept.removeLast()
            default: kept.append(component)
            }
        }
        return kept.isEmpty ? nil : kept.joined(separator: "/")
    }
}

extension FlowArtifacts {
    /// These artifacts with every path that is not a link inside the report's folder
    /// (``ArtifactLink/inside(_:)``) removed, and the paths removed.
    package func keepingLinksInside() -> (artifacts: FlowArtifacts, dropped: [String]) {
        var copy = self
        var dropped: [String] = []
        func keep(_ path: WritableKeyPath<FlowArtifacts, String?>) {
            guard let value = copy[keyPath: path] else { return }
            copy[keyPath: path] = ArtifactLink.inside(value)
            if copy[keyPath: path] == nil { dropped.append(value) }
        }
        for path in [\FlowArtifacts.cast, \.screenText, \.screenSVG, \.screenPNG, \.journal, \.events, \.stdout, \.stderr] { keep(path) }
        return (copy, dropped)
    }
}

extension RunReport {
    /// This report with every artifact path that leaves the report's folder removed
    /// (``FlowArtifacts/keepingLinksInside()``), and one line per path removed, naming its flow.
    package func keepingArtifactLinksInside() -> (report: RunReport, dropped: [String]) {
        var report = self
        var dropped: [String] = []
        for flow in report.flows.indices {
            for attempt in report.flows[flow].attempts.indices {
                guard let artifacts = report.flows[flow].attempts[attempt].artifacts else { continue }
                let kept = artifacts.keepingLinksInside()
                report.flows[flow].attempts[attempt].artifacts = kept.artifacts.isEmpty ? nil : kept.artifacts
                dropped += kept.dropped.map { "\(report.flows[flow].path) attempt \(report.flows[flow].attempts[attempt].number): \($0.debugDescription)" }
            }
        }
        return (report, dropped)
    }
}
