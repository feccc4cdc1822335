import Foundation
import HarnessSteps

extension RunReportPage {
    /// The changed snapshots of a flow or test: for each, the reference and the actual snapshot
    /// side by side (their pictures when they have them, as images, then their text), and the command
    /// that accepts the actual one.
    static func snapshotChanges(_ flow: RunReport.Flow) -> String {
        guard let changes = flow.snapshots, !changes.isEmpty else { return "" }
        var out = "<section class=\"snapshots\"><h3>Changed snapshot\(changes.count == 1 ? "" : "s")</h3>\n"
        for change in changes {
            out += "<div class=\"snapshot-change\" data-reference=\"\(XMLEscaping.attribute(change.reference))\">\n"
            out += "<p class=\"snapshot-name\"><code>\(XMLEscaping.text(change.reference))</code></p>\n"
            out += "<div class=\"side-by-side\">"
            out += side("Expected", class: "expected", svg: change.expectedSVG,
                        text: change.expected, missing: "no reference yet (it was not recorded)")
            out += side("Actual", class: "actual", svg: change.actualSVG, text: change.actual, missing: "")
            out += "</div>\n"
            out += "<p class=\"accept\">Accept it: <code class=\"accept-command\">\(XMLEscaping.text(change.acceptCommand))</code></p>\n"
            out += "</div>\n"
        }
        return out + "</section>\n"
    }

    private static func side(_ title: String, class name: String, svg: String?, text: String?, missing: String) -> String {
        var out = "<div class=\"side \(name)\"><h4>\(title)</h4>"
        if let svg {
            // The SVG came from a file (a reference in the repository) or a shard: shown as an
            // image, so that whatever script or handler it holds never runs.
            out += "<div class=\"snapshot-svg\"><img alt=\"\(XMLEscaping.attribute(title.lowercased())) picture\" src=\"\(svgDataURI(svg))\"></div>"
        }
        if let text {
            out += "<pre class=\"snapshot-text\">\(XMLEscaping.text(text))</pre>"
        } else {
            out += "<p class=\"dim\">\(XMLEscaping.text(missing))</p>"
        }
        return out + "</div>"
    }

    /// `svg` as a `data:` URI (base64) for an `<img>`.
    static func svgDataURI(_ svg: String) -> String {
        "data:image/svg+xml;base64," + Data(svg.utf8).base64EncodedString()
    }

    /// The style of the changed snapshots.
    static let snapshotStyle = """
    .snapshots{margin:8px 0 14px}.snapshot-change{border:1px solid var(--line);border-radius:6px;padding:8px 12px;margin:8px 0}
    .snapshot-name{margin:0 0 6px;font-weight:600}.side-by-side{display:grid;grid-template-columns:1fr 1fr;gap:12px}
    .side h4{margin:0 0 4px;font-size:13px;color:var(--dim);text-transform:uppercase;letter-spacing:.03em}
    .side.actual h4{color:var(--bad)}.snapshot-svg{background:#000;border-radius:4px;overflow:hidden;line-height:0;margin-bottom:6px}
    .snapshot-svg img{width:100%;height:auto;display:block}.snapshot-text{white-space:pre;overflow:auto}
    .accept{margin:6px 0 0}.accept code{background:var(--soft);padding:2px 6px;border-radius:4px;user-select:all}
    """
}
