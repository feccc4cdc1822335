import Foundation
import HarnessCore
import HarnessSteps
import TerminalEmulator

/// The run report page (`index.html`): one self-contained file (inline style and script, no
/// network) that says in a minute what broke, when and why.
///
/// Everything it shows is data, never markup: texts are escaped, every picture (a screen, a
/// snapshot's SVG) is an `<img>` of a `data:` URI, so an SVG's own script never runs, links
/// are relative paths inside the report's folder, and a Content-Security-Policy lets only the
/// page's own script run (``HTMLPageHead/contentSecurityPolicy(script:allowsImagesFromFolder:)``).
///
/// From top to bottom: the verdict and totals, which double as status filters, and a search
/// box; every flow (failed and flaky first) with its time, attempts, history strip and "flaky
/// over time" flag; the slowest flows; then, for every traced attempt (failed and flaky flows,
/// every flow with `--trace on`), its timeline and replay: each flow line with its start,
/// duration and result and the screen after it, the stub requests, bridge events and spy
/// records on the same time axis, the failing step marked with its message and diff, and a
/// player over the frames the harness's emulator drew from the recording.
///
/// Screens are kept once in a table of unique SVG pictures (a JSON array in the page); the
/// script shows them, as `<img>` elements of `data:` URIs, in the thumbnails and the player
/// when a flow's section is opened.
///
/// ```swift
/// let html = RunReportPage.html(report)
/// ```
public enum RunReportPage {
    /// Sections opened when the page loads (the first failed or flaky flows).
    static let initiallyOpen = 3
    /// Flows in the "slowest" list.
    static let slowestCount = 10

    /// The page of `report`.
    public static func html(_ report: RunReport) -> String {
        let summary = report.summary
        let ordered = report.flows.enumerated().sorted { lhs, rhs in
            let left = rank(lhs.element.status), right = rank(rhs.element.status)
            return left != right ? left < right : lhs.element.path < rhs.element.path
        }
        let headline = report.incomplete == nil ? summary.description : "incomplete: " + summary.description
        var out = HTMLPageHead.html(title: report.title, summary: headline, style: style + snapshotStyle, script: script)
        out += header(report, summary: summary)
        out += "<main>\n"
        out += flowTable(report, ordered: ordered.map(\.offset))
        out += slowest(report)
        var opened = 0
        for (index, flow) in ordered where hasDetails(flow) {
            let open = opened < initiallyOpen && (flow.status == .failed || flow.status == .flaky)
            if open { opened += 1 }
            out += details(flow, index: index, open: open, report: report)
        }
        out += "</main>\n"
        out += "<div id=\"zoom\" hidden><div class=\"zoom-screen\"></div><p>Click or press Escape to close</p></div>\n"
        out += "<script type=\"application/json\" id=\"frames\">\(framesJSON(report.frames))</script>\n"
        out += "<script>\(script)</script>\n"
        out += "</body>\n</html>\n"
        return out
    }

    /// What the page calls the report's cases: "flows", or "tests" in a report of Swift tests only.
    struct CaseNoun {
        let one: String
        let many: String

        init(_ report: RunReport) {
            (one, many) = report.caseKind == .tests ? ("test", "tests") : ("flow", "flows")
        }

        var oneCapitalized: String { one.prefix(1).uppercased() + one.dropFirst() }
        var manyCapitalized: String { many.prefix(1).uppercased() + many.dropFirst() }
    }

    // MARK: - Header

    private static func header(_ report: RunReport, summary: FlowRunSummary) -> String {
        var out = "<header>\n<div class=\"title\"><h1>\(text(report.title))</h1>"
        var meta: [String] = []
        if let start = report.startedAt { meta.append("started " + dateText(start)) }
        if let wall = report.wallSeconds { meta.append("wall time " + seconds(wall)) }
        let total = report.flows.reduce(0) { $0 + $1.seconds }
        let noun = CaseNoun(report)
        meta.append("\(noun.one) time " + seconds(total))
        if !report.shards.isEmpty { meta.append("\(report.shards.count) shard\(report.shards.count == 1 ? "" : "s") (\(report.shards.joined(separator: ", ")))") }
        out += "<p class=\"meta\">\(text(meta.joined(separator: " · ")))</p></div>\n"
        let verdict = summary.succeeded ? (summary.flaky > 0 ? "passed, with flaky \(noun.many)" : "passed")
            : summary.interrupted > 0 ? "interrupted" : "failed"
        if let problems = report.incomplete {
            // A merge that lacks shards or flows: no verdict on the whole run, and what is missing.
            out += "<p class=\"verdict bad incomplete\">Run incomplete: \(text(summary.description)) in what arrived</p>\n"
            out += "<div class=\"incomplete\"><p>Not every planned shard or \(noun.one) ran exactly once:</p><ul>"
            out += problems.map { "<li>\(text($0))</li>" }.joined()
            out += "</ul></div>\n"
        } else {
            out += "<p class=\"verdict \(summary.succeeded ? "ok" : "bad")\">Run \(verdict): \(text(summary.description))</p>\n"
        }
        out += "<nav class=\"filters\">"
        let counts: [(String, String, Int)] = [
            ("all", "All", summary.total), ("failed", "Failed", summary.failed), ("flaky", "Flaky", summary.flaky),
            ("passed", "Passed", summary.passed), ("skipped", "Skipped", summary.skipped),
        ] + (summary.interrupted > 0 ? [("interrupted", "Interrupted", summary.interrupted)] : [])
        for (key, label, count) in counts {
            out += "<button type=\"button\" class=\"filter \(key)\(key == "all" ? " on" : "")\" data-filter=\"\(key)\">"
            out += "\(label) <b>\(count)</b></button>"
        }
        out += "<input type=\"search\" id=\"search\" placeholder=\"Search \(noun.many) by name\" aria-label=\"Search \(noun.many) by name\">"
        out += "<span id=\"shown\"></span></nav>\n</header>\n"
        return out
    }

    // MARK: - Flows

    private static func flowTable(_ report: RunReport, ordered: [Int]) -> String {
        let noun = CaseNoun(report)
        var out = "<section class=\"card\"><h2>\(noun.manyCapitalized)</h2>\n<table class=\"flows\">\n"
        out += "<thead><tr><th>Status</th><th>\(noun.oneCapitalized)</th><th>History</th><th class=\"num\">Time</th><th class=\"num\">Attempts</th></tr></thead>\n<tbody>\n"
        for index in ordered {
            let flow = report.flows[index]
            let status = flow.status.rawValue
            out += "<tr class=\"flow-row \(status)\" data-status=\"\(status)\" data-name=\"\(attribute(flow.path))\">"
            out += "<td>\(badge(flow.status))</td><td>"
            out += hasDetails(flow) ? "<a href=\"#f-\(index)\">\(text(flow.path))</a>" : "<span class=\"path\">\(text(flow.path))</span>"
            if flow.flakyOverTime == true { out += " <span class=\"flag\" title=\"flips between pass and fail across runs\">flaky over time</span>" }
            if let line = summaryLine(flow) { out += "<div class=\"why\">\(text(line))</div>" }
            out += "</td><td>\(strip(flow.history))</td>"
            out += "<td class=\"num\">\(text(seconds(flow.seconds)))</td><td class=\"num\">\(flow.attempts.count)</td></tr>\n"
        }
        out += "</tbody>\n</table>\n</section>\n"
        return out
    }

    /// The history strip: one bar per run, colored by outcome, as tall as its time.
    private static func strip(_ history: [RunReport.HistoryPoint]?) -> String {
        guard let history, !history.isEmpty else { return "" }
        let longest = max(history.map(\.seconds).max() ?? 0, 0.001)
        var out = "<span class=\"strip\" title=\"last \(history.count) run\(history.count == 1 ? "" : "s"), oldest first\">"
        for point in history {
            let height = max(15, Int((point.seconds / longest * 100).rounded()))
            let title = "\(dateText(point.date)): \(point.status.rawValue), \(seconds(point.seconds))"
            out += "<i class=\"\(point.status.rawValue)\" style=\"height:\(height)%\" title=\"\(attribute(title))\"></i>"
        }
        return out + "</span>"
    }

    private static func slowest(_ report: RunReport) -> String {
        let flows = report.flows.enumerated().filter { $0.element.status != .skipped }
            .sorted { $0.element.seconds > $1.element.seconds }.prefix(slowestCount)
        guard let longest = flows.first?.element.seconds, longest > 0 else { return "" }
        var out = "<section class=\"card slowest\"><h2>Slowest \(CaseNoun(report).many)</h2>\n<ol>\n"
        for (index, flow) in flows {
            let width = max(1, Int((flow.seconds / longest * 100).rounded()))
            let name = hasDetails(flow) ? "<a href=\"#f-\(index)\">\(text(flow.path))</a>" : text(flow.path)
            out += "<li class=\"\(flow.status.rawValue)\"><span class=\"time\">\(text(seconds(flow.seconds)))</span>"
            out += "<span class=\"bar\"><i style=\"width:\(width)%\"></i></span>\(name)</li>\n"
        }
        return out + "</ol>\n</section>\n"
    }

    // MARK: - Details

    private static func hasDetails(_ flow: RunReport.Flow) -> Bool {
        flow.status == .failed || flow.status == .flaky || flow.status == .interrupted || flow.attempts.contains { $0.trace != nil }
    }

    private static func details(_ flow: RunReport.Flow, index: Int, open: Bool, report: RunReport) -> String {
        let status = flow.status.rawValue
        var out = "<details class=\"flow \(status)\" id=\"f-\(index)\" data-status=\"\(status)\" data-name=\"\(attribute(flow.path))\"\(open ? " open" : "")>\n"
        out += "<summary>\(badge(flow.status)) <span class=\"path\">\(text(flow.path))</span>"
        out += " <span class=\"dim\">\(text(seconds(flow.seconds))), \(flow.attempts.count) attempt\(flow.attempts.count == 1 ? "" : "s")"
        if let shard = flow.shard { out += ", shard \(text(shard))" }
        out += "</span>"
        if flow.flakyOverTime == true { out += " <span class=\"flag\">flaky over time</span>" }
        out += "</summary>\n"
        if let history = flow.history, history.count > 1 {
            let counts = FlowStatus.allCases.compactMap { status -> String? in
                let count = history.filter { $0.status == status }.count
                return count == 0 ? nil : "\(count) \(status.rawValue)"
            }
            out += "<p class=\"history-line\">Last \(history.count) runs: \(counts.joined(separator: ", ")). \(strip(history))</p>\n"
        }
        // The attempt to read first is the last failed one; the others are folded under it.
        let main = flow.attempts.last { $0.outcome == "failed" }?.number ?? flow.attempts.last?.number
        out += snapshotChanges(flow)
        for attempt in flow.attempts.reversed() {
            out += attemptSection(attempt, of: flow, anchor: "f-\(index)-a\(attempt.number)", folded: attempt.number != main)
        }
        out += "</details>\n"
        return out
    }

    private static func attemptSection(_ attempt: RunReport.Attempt, of flow: RunReport.Flow, anchor: String, folded: Bool) -> String {
        var heading = "Attempt \(attempt.number)"
        if flow.attempts.count > 1 { heading += " of \(flow.attempts.count)" }
        heading += ": \(attempt.outcome)"
        if let position = attempt.position { heading += " at line \(position.line)" }
        heading += " <span class=\"dim\">\(text(seconds(attempt.seconds)))</span>"
        var out = "<section class=\"attempt \(attempt.outcome)\" id=\"\(anchor)\">\n"
        out += folded ? "<details class=\"fold\"><summary><h3>\(heading)</h3></summary>\n" : "<h3>\(heading)</h3>\n"
        let failing = attempt.trace?.steps.first { $0.result == .failed }
        if let failing {
            out += "<div class=\"failure\"><div class=\"where\">Line \(failing.line): <code>\(text(failing.text))</code></div>"
            out += "<p class=\"problem\">\(text(failing.problem ?? "failed"))</p>"
            if let details = failing.details, !details.isEmpty { out += diffBlock(details) }
            out += "</div>\n"
        } else if attempt.outcome == "failed" || attempt.outcome == "interrupted", let message = attempt.message {
            out += "<div class=\"failure\"><pre>\(text(message))</pre></div>\n"
        }
        if let trace = attempt.trace {
            out += trace.replay == nil ? "<div class=\"trace no-replay\">\n" : "<div class=\"trace\">\n"
            out += timeline(trace)
            if let replay = trace.replay { out += player(replay, startsAtEnd: attempt.outcome == "failed") }
            out += "</div>\n"
        }
        if attempt.outcome == "failed", let message = attempt.message, failing != nil {
            out += "<details class=\"message\"><summary>Full message</summary><pre>\(text(message))</pre></details>\n"
        }
        if let artifacts = attempt.artifacts { out += artifactLinks(artifacts) }
        if folded { out += "</details>\n" }
        out += "</section>\n"
        return out
    }

    /// A diff's lines colored by their first character.
    private static func diffBlock(_ details: String) -> String {
        let lines = details.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let kind = line.hasPrefix("+") ? "add" : line.hasPrefix("-") ? "del" : line.hasPrefix("@@") ? "hunk" : ""
            return kind.isEmpty ? text(String(line)) : "<span class=\"\(kind)\">\(text(String(line)))</span>"
        }
        return "<pre class=\"diff\">\(lines.joined(separator: "\n"))</pre>"
    }

    /// One row of the timeline, before sorting.
    private struct Row {
        var time: Double
        var order: Int
        var html: String
    }

    private static func timeline(_ trace: RunReport.Trace) -> String {
        let span = max(trace.duration, trace.requests.last?.time ?? 0, trace.messages.last?.time ?? 0, 0.001)
        func bar(_ start: Double, _ duration: Double?) -> String {
            let left = min(100, max(0, start / span * 100))
            guard let duration else { return "<td class=\"bar\"><span class=\"dot\" style=\"left:\(percent(left))%\"></span></td>" }
            let width = min(100 - left, max(0.4, duration / span * 100))
            return "<td class=\"bar\"><span style=\"left:\(percent(left))%;width:\(percent(width))%\"></span></td>"
        }
        var rows: [Row] = []
        var notRun = ""
        for (order, step) in trace.steps.enumerated() {
            if step.result == .notRun {
                notRun += "<tr class=\"step notrun\"><td class=\"t\">—</td><td class=\"bar\"></td><td class=\"line\">\(step.line)</td>"
                notRun += "<td class=\"what\"><code>\(text(step.text))</code> <span class=\"dim\">not run</span></td><td class=\"num\"></td><td></td></tr>\n"
                continue
            }
            let end = step.start + step.duration
            var row = "<tr class=\"step \(step.result.rawValue)\(step.result == .failed ? " failing" : "")\" data-t=\"\(percent(end))\">"
            row += "<td class=\"t\">\(text(offset(step.start)))</td>\(bar(step.start, step.duration))"
            row += "<td class=\"line\">\(step.line)</td><td class=\"what\"><code>\(text(step.text))</code>"
            if step.result == .failed { row += " <span class=\"mark\">✗ failed here</span>" }
            row += "</td><td class=\"num\">\(text(seconds(step.duration)))</td><td class=\"shot\">"
            if let frame = step.frame {
                row += "<button type=\"button\" class=\"thumb\" data-frame=\"\(frame)\" title=\"the screen after line \(step.line); click to enlarge\"></button>"
            }
            row += "</td></tr>\n"
            if step.result == .failed || step.result == .skipped {
                row += "<tr class=\"failure-row\"><td></td><td></td><td></td><td colspan=\"3\"><p class=\"problem\">\(text(step.problem ?? ""))</p>"
                if let details = step.details, !details.isEmpty { row += diffBlock(details) }
                row += "</td></tr>\n"
            }
            rows.append(Row(time: step.start, order: order, html: row))
        }
        for request in trace.requests {
            let code = Int(request.status).map { "s\($0 / 100)" } ?? "sx"
            var row = "<tr class=\"request\" data-t=\"\(percent(request.time))\"><td class=\"t\">\(text(offset(request.time)))</td>"
            row += bar(request.time, request.delay)
            row += "<td class=\"line kind\">HTTP</td><td class=\"what\"><code>\(text(request.method)) \(text(request.target))</code>"
            row += " → <span class=\"http \(code)\">\(text(request.status))</span>"
            if let delay = request.delay { row += " <span class=\"dim\">after \(text(seconds(delay)))</span>" }
            row += "</td><td class=\"num\"></td><td></td></tr>\n"
            rows.append(Row(time: request.time, order: Int.max, html: row))
        }
        for message in trace.messages {
            var row = "<tr class=\"message \(message.kind.rawValue)\" data-t=\"\(percent(message.time))\"><td class=\"t\">\(text(offset(message.time)))</td>"
            row += bar(message.time, nil)
            row += "<td class=\"line kind\">\(message.kind.rawValue)</td>"
            row += "<td class=\"what\"><code>\(text(message.name))</code> <code class=\"value\">\(text(message.value))</code></td><td class=\"num\"></td><td></td></tr>\n"
            rows.append(Row(time: message.time, order: Int.max, html: row))
        }
        rows.sort { $0.time != $1.time ? $0.time < $1.time : $0.order < $1.order }
        var out = "<table class=\"timeline\">\n<colgroup><col class=\"c-t\"><col class=\"c-bar\"><col class=\"c-line\"><col>"
        out += "<col class=\"c-took\"><col class=\"c-shot\"></colgroup>\n<thead><tr><th>Time</th><th class=\"bar\">\(text(seconds(span)))</th><th>Line</th>"
        out += "<th>Step, request or event</th><th class=\"num\">Took</th><th>Screen after</th></tr></thead>\n<tbody>\n"
        out += rows.map(\.html).joined() + notRun
        out += "</tbody>\n</table>\n"
        return out
    }

    /// The replay player; a failed attempt's starts on its last frame (the screen as it failed).
    private static func player(_ replay: RunReport.Replay, startsAtEnd: Bool) -> String {
        let times = replay.times.map(percent).joined(separator: ",")
        let frames = replay.frames.map(String.init).joined(separator: ",")
        var out = "<div class=\"player\" data-times=\"\(times)\" data-frames=\"\(frames)\"\(startsAtEnd ? " data-start=\"end\"" : "")>"
        out += "<div class=\"player-head\">Replay <span class=\"dim\">\(replay.cols)×\(replay.rows), \(replay.frames.count) frame\(replay.frames.count == 1 ? "" : "s")</span></div>"
        out += "<div class=\"screen\"></div><div class=\"controls\"><button type=\"button\" class=\"play\" title=\"play or pause\">▶</button>"
        out += "<input type=\"range\" min=\"0\" max=\"\(max(0, replay.frames.count - 1))\" value=\"0\" aria-label=\"frame\">"
        out += "<span class=\"clock\">+0.00s</span><span class=\"count\"></span></div></div>\n"
        return out
    }

    private static func artifactLinks(_ artifacts: FlowArtifacts) -> String {
        let links: [(String, String?)] = [
            ("recording (.cast)", artifacts.cast), ("last screen (SVG)", artifacts.screenSVG), ("last screen (PNG)", artifacts.screenPNG),
            ("last screen (text)", artifacts.screenText),
            ("stub journal", artifacts.journal), ("bridge events", artifacts.events), ("stdout", artifacts.stdout), ("stderr", artifacts.stderr),
        ]
        let items = links.compactMap { label, path in
            path.flatMap(ArtifactLink.inside).map { "<a href=\"\(RunIndexWriter.href($0))\">\(text(label))</a>" }
        }
        guard !items.isEmpty else { return "" }
        return "<p class=\"artifacts\">Files: " + items.joined(separator: " · ") + "</p>\n"
    }

    // MARK: - Text

    private static func rank(_ status: FlowStatus) -> Int {
        switch status {
        case .failed: 0
        case .interrupted: 1
        case .flaky: 2
        case .skipped: 3
        case .passed: 4
        }
    }

    private static func badge(_ status: FlowStatus) -> String {
        "<span class=\"badge \(status.rawValue)\">\(status.rawValue)</span>"
    }

    private static func summaryLine(_ flow: RunReport.Flow) -> String? {
        if flow.status == .skipped { return flow.skipReason }
        if flow.status == .interrupted, let attempt = flow.attempts.last, let message = attempt.message {
            let first = message.prefix { $0 != "\n" }
            return attempt.position.map { "line \($0.line): \(first)" } ?? String(first)
        }
        guard flow.status == .failed || flow.status == .flaky,
              let attempt = flow.attempts.last(where: { $0.outcome == "failed" }), let message = attempt.message else { return nil }
        let first = message.prefix { $0 != "\n" }
        return attempt.position.map { "line \($0.line): \(first)" } ?? String(first)
    }

    /// `1.23s`, `45ms`, `2m 05s`.
    static func seconds(_ value: Double) -> String {
        if value < 1 { return "\(Int((value * 1000).rounded()))ms" }
        if value < 60 { return String(format: "%.2fs", value) }
        let whole = Int(value.rounded())
        return String(format: "%dm %02ds", whole / 60, whole % 60)
    }

    private static func offset(_ value: Double) -> String { String(format: "+%.2fs", value) }

    private static func percent(_ value: Double) -> String { String(format: "%.3f", value) }

    /// One formatter for the page (made once: history strips format thousands of dates).
    private static let dateFormatter = DateFormatter.utc("yyyy-MM-dd HH:mm 'UTC'")

    private static func dateText(_ date: Date) -> String { dateFormatter.string(from: date) }

    private static func text(_ value: String) -> String { XMLEscaping.text(value) }

    private static func attribute(_ value: String) -> String { XMLEscaping.attribute(value) }

    /// The frames as a JSON array safe inside `<script>`: no `</` or `<!` survives.
    static func framesJSON(_ frames: [String]) -> String {
        let encoder = JSONEncoder()
        let json = (try? encoder.encode(frames)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        return json.replacingOccurrences(of: "</", with: "<\\/").replacingOccurrences(of: "<!", with: "\\u003c!")
    }
}
