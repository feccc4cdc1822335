import Foundation
import HarnessCore
import HarnessSteps

/// Writes a plain `index.html` for a run's artifacts folder: every flow's result, and for failed and
/// flaky flows the failing screen (the SVG artifact as an image) with links to the recording,
/// screen text, stub journal and bridge events. (`harness run` writes the full run report,
/// ``RunReportPage``, instead.)
///
/// The page is self-contained (inline CSS, no script, a Content-Security-Policy that runs
/// none); every text is escaped and every link is a relative path inside the folder (a path
/// that leaves it, ``ArtifactLink/inside(_:)``, is left out).
///
/// ```swift
/// try RunIndexWriter.write(results, toFolder: "artifacts")
/// ```
public enum RunIndexWriter {
    /// The page.
    public static func html(results: [FlowResult], title: String = "Flow run", generatedAt: Date? = nil) -> String {
        let sorted = results.sorted { $0.path < $1.path }
        let summary = FlowRunSummary(sorted)
        var out = HTMLPageHead.html(title: title, summary: summary.description, style: style, allowsImagesFromFolder: true)
        out += """
        <h1>\(text(title))</h1>
        <p class="summary \(summary.succeeded ? "ok" : "bad")">\(text(summary.description))</p>

        """
        if let generatedAt {
            let formatter = ISO8601DateFormatter()
            out += "<p class=\"when\">\(text(formatter.string(from: generatedAt)))</p>\n"
        }
        out += "<table>\n<thead><tr><th>Status</th><th>Flow</th><th>Time</th><th>Attempts</th><th>Message</th></tr></thead>\n<tbody>\n"
        for (index, result) in sorted.enumerated() {
            let status = result.status.rawValue
            let detail = result.status == .failed || result.status == .flaky
            let name = detail ? "<a href=\"#flow-\(index)\">\(text(result.path))</a>" : text(result.path)
            let message = result.status == .skipped ? result.skipReason ?? "" : result.lastFailure?.summary ?? ""
            out += "<tr class=\"\(status)\"><td><span class=\"badge \(status)\">\(status)</span></td>"
            out += "<td>\(name)</td><td>\(text(FlowProgressReporter.seconds(result.duration)))</td>"
            out += "<td>\(result.attempts.count)</td><td>\(text(message))</td></tr>\n"
        }
        out += "</tbody>\n</table>\n"
        for (index, result) in sorted.enumerated() where result.status == .failed || result.status == .flaky {
            out += section(result, anchor: "flow-\(index)")
        }
        out += "</body>\n</html>\n"
        return out
    }

    /// Writes `index.html` into `folder` (created if needed) and returns its path.
    @discardableResult
    public static func write(_ results: [FlowResult], toFolder folder: String, title: String = "Flow run",
                             generatedAt: Date? = Date()) throws -> String {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = FlowPaths.join(folder, "index.html")
        try Data(html(results: results, title: title, generatedAt: generatedAt).utf8)
            .write(to: URL(fileURLWithPath: path), options: .atomic)
        return path
    }

    // MARK: - Parts

    private static func section(_ result: FlowResult, anchor: String) -> String {
        var out = "<section id=\"\(anchor)\" class=\"\(result.status.rawValue)\">\n"
        out += "<h2><span class=\"badge \(result.status.rawValue)\">\(result.status.rawValue)</span> \(text(result.path))</h2>\n"
        out += "<ol class=\"attempts\">\n"
        for attempt in result.attempts {
            let time = FlowProgressReporter.seconds(attempt.duration)
            switch attempt.outcome {
            case .passed:
                out += "<li>passed (\(text(time)))</li>\n"
            case .skipped(let reason):
                out += "<li>skipped: \(text(reason))</li>\n"
            case .interrupted(let interruption):
                out += "<li>interrupted (\(text(time)))"
                if let position = interruption.position { out += " at <code>\(text(position.description))</code>" }
                out += "<pre>\(text(interruption.message))</pre></li>\n"
            case .failed(let failure):
                out += "<li>failed (\(text(time)))"
                if let position = failure.position { out += " at <code>\(text(position.description))</code>" }
                out += "<pre>\(text(failure.message))</pre></li>\n"
            }
        }
        out += "</ol>\n"
        let artifacts = result.artifacts.keepingLinksInside().artifacts
        if let svg = artifacts.screenSVG {
            out += "<figure><img src=\"\(href(svg))\" alt=\"\(attribute("last screen of " + result.path))\">"
            out += "<figcaption>last screen</figcaption></figure>\n"
        }
        let links: [(String, String?)] = [
            ("recording (asciicast)", artifacts.cast), ("screen text", artifacts.screenText),
            ("screen SVG", artifacts.screenSVG), ("screen PNG", artifacts.screenPNG), ("stub journal", artifacts.journal), ("bridge events", artifacts.events),
            ("stdout", artifacts.stdout), ("stderr", artifacts.stderr),
        ]
        let items = links.compactMap { label, path in path.map { "<li><a href=\"\(href($0))\">\(text(label))</a></li>" } }
        if !items.isEmpty { out += "<ul class=\"artifacts\">\n" + items.joined(separator: "\n") + "\n</ul>\n" }
        out += "</section>\n"
        return out
    }

    private static func text(_ value: String) -> String { XMLEscaping.text(value) }

    private static func attribute(_ value: String) -> String { XMLEscaping.attribute(value) }

    /// A relative link: each path segment percent-encoded, `./` in front so no segment can be
    /// read as a URL scheme (`javascript:`), then escaped for the attribute.
    static func href(_ path: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map {
            String($0).addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        }
        var joined = segments.joined(separator: "/")
        if !joined.hasPrefix("/") && !joined.hasPrefix("./") && !joined.hasPrefix("../") { joined = "./" + joined }
        return attribute(joined)
    }

    private static let style = """
    body{font:14px/1.45 -apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif;margin:2em;color:#222;background:#fff}\
    h1{font-size:1.5em;margin:0 0 .3em}h2{font-size:1.15em;margin:1.5em 0 .5em}\
    .summary{font-weight:600;font-size:1.1em}.summary.ok{color:#1a7f37}.summary.bad{color:#cf222e}.when{color:#666}\
    table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3em .6em;border-bottom:1px solid #ddd;vertical-align:top}\
    .badge{display:inline-block;min-width:4.5em;text-align:center;border-radius:3px;padding:0 .4em;color:#fff;font-size:.85em}\
    .badge.passed{background:#1a7f37}.badge.failed{background:#cf222e}.badge.flaky{background:#bf8700}.badge.skipped{background:#6e7781}.badge.interrupted{background:#8250df}\
    section{border-top:2px solid #eee;margin-top:2em}pre{background:#f6f8fa;padding:.6em;overflow:auto;white-space:pre-wrap}\
    figure{margin:1em 0}figure img{max-width:100%;border:1px solid #ccc}figcaption{color:#666;font-size:.9em}
    """
}
