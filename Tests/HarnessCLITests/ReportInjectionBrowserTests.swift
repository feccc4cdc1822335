import Foundation
import TestSupport
import Testing
import HarnessCore
@testable import HarnessFlows
@testable import HarnessSteps

/// What a pull request or a shard controls never runs as script in the report: a reference
/// snapshot's SVG from the repository and the frames of a shard's `results.json` are shown as
/// images, and the page's policy lets only its own script run.
@Suite(.enabled(if: HeadlessChromium.isInstalled, "chromium is not installed (.ci/run installs it: apt-get install -y chromium)"))
struct ReportInjectionBrowserTests {
    /// Markup that, inserted in the page, would set the title to PWNED and a `data-pwned`
    /// attribute on `<body>` (the markers are built at run time, so the JSON that carries the
    /// markup never holds them).
    static let injectedSVG = """
        <svg xmlns="http://www.w3.org/2000/svg" onload="document.title='PW'+'NED'">\
        <script>document.body.setAttribute('data-'+'pwned','script')</script>\
        <image href="x" onerror="document.body.setAttribute('data-'+'pwned','image')"/></svg>
        """
    static let injectedFrame = #"<img src=x onerror="document.title='PW'+'NED'">"# + injectedSVG

    @Test func aReferenceSVGWithScriptIsShownAsAnImageAndNeverRuns() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        func flow(_ word: String) -> String {
            "app sh -c \"printf '\(word)'; exec cat\"\nsize 20x3\nlaunch\nexpect \"\(word)\"\ntimeout 300ms\nsnapshot greeting\n"
        }
        try fixture.write(flow("hello"), at: "suite/hi.flow")
        let record = try await runHarness(["run", "suite", "--record", "missing"], in: fixture.folder)
        #expect(record.status == 1, "recording fails: \(record.stdout)")
        // A pull request edits the reference's picture.
        try fixture.write(Self.injectedSVG, at: "suite/__Snapshots__/hi/hi.greeting.svg")
        try fixture.write(flow("howdy"), at: "suite/hi.flow")
        let failed = try await runHarness(["run", "suite", "--artifacts", "out"], in: fixture.folder)
        #expect(failed.status == 1, "\(failed.stdout)\n\(failed.stderr)")

        let page = fixture.folder + "/out/index.html"
        let dom = try await HeadlessChromium.dumpDOM(of: page)
        #expect(dom.contains("data-ready=\"1\""), "the page's script ran under its policy")
        Self.expectNothingInjected(dom)
        let expected = try #require(RunReportBrowserTests.element(in: dom, from: "<div class=\"side expected\"", to: "</pre></div>"))
        let uri = try #require(expected.firstMatch(of: /<img alt="expected picture" src="data:image\/svg\+xml;base64,([^"]*)">/))
        #expect(Data(base64Encoded: String(uri.1)) == Data(Self.injectedSVG.utf8), "the picture is the reference, as an image")
        try await Self.expectNoPolicyViolation(page)
    }

    @Test func aShardsCraftedFramesAreShownAsImagesAndNeverRun() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try fixture.write("app sh -c \"echo hello; exec cat\"\nlaunch\nexpect \"hello\"\nexpect \"never\" within 300ms\n",
                          at: "suite/broken.flow")
        let shard = try await runHarness(["run", "suite", "--artifacts", "shard-1", "--trace", "on"], in: fixture.folder)
        #expect(shard.status == 1, "\(shard.stdout)\n\(shard.stderr)")
        // The job that ran the code under test wrote its own results.json.
        var report = try RunReportWriter.read(folder: fixture.folder + "/shard-1")
        #expect(!report.frames.isEmpty)
        report.frames = report.frames.indices.map { "\(Self.injectedFrame)<!-- \($0) -->" }
        try RunReportWriter.write(report, toFolder: fixture.folder + "/shard-1")
        let merged = try await runHarness(["merge-reports", "merged", "shard-1"], in: fixture.folder)
        #expect(merged.status == 0, "\(merged.stdout)\n\(merged.stderr)")

        let page = fixture.folder + "/merged/index.html"
        let dom = try await HeadlessChromium.dumpDOM(of: page)
        #expect(dom.contains("data-ready=\"1\""), "the page's script ran under its policy")
        Self.expectNothingInjected(dom)
        // The script drew the frames, as images.
        let section = try #require(RunReportBrowserTests.element(in: dom, from: "<details class=\"flow failed\"", to: "</details>"))
        let thumbs = RunReportBrowserTests.elements(in: section, from: "<button type=\"button\" class=\"thumb\"", to: "</button>")
        #expect(!thumbs.isEmpty && thumbs.allSatisfy { $0.contains("<img alt=\"screen\" src=\"data:image/svg+xml;charset=utf-8,") })
        #expect(section.contains("<div class=\"screen\"><img alt=\"screen\" src=\"data:image/svg+xml;charset=utf-8,"))
        try await Self.expectNoPolicyViolation(page)
    }

    /// No marker the injected markup sets, and no element or attribute of it, outside the
    /// frames' JSON (where it is data).
    static func expectNothingInjected(_ dom: String, sourceLocation: SourceLocation = #_sourceLocation) {
        var outside = dom
        if let frames = RunReportBrowserTests.element(in: dom, from: "<script type=\"application/json\" id=\"frames\">", to: "</script>") {
            outside = dom.replacingOccurrences(of: frames, with: "")
        }
        #expect(!dom.contains("PWNED") && !dom.contains("data-pwned"), "the injected handlers ran", sourceLocation: sourceLocation)
        #expect(!outside.contains("onerror=\"") && !outside.contains("onload=\""), "an injected attribute is in the DOM",
                sourceLocation: sourceLocation)
        #expect(!outside.contains("<img src=\"x\"") && !outside.contains("<image"), "an injected element is in the DOM", sourceLocation: sourceLocation)
        #expect(outside.components(separatedBy: "<script").count == 2, "only the page's own script", sourceLocation: sourceLocation)
        #expect(!outside.contains("<svg"), "no markup from a file or a shard is inlined", sourceLocation: sourceLocation)
    }

    /// Chromium logs each Content-Security-Policy violation on its console: none.
    static func expectNoPolicyViolation(_ page: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let output = try await HeadlessChromium.run(["--enable-logging=stderr", "--v=0", "--virtual-time-budget=2000", "--dump-dom",
                                                     "file://" + page])
        #expect(output.standardOutput.contains("data-ready=\"1\""), sourceLocation: sourceLocation)
        let violations = output.standardError.split(separator: "\n").filter { $0.contains("Content Security Policy") }
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))", sourceLocation: sourceLocation)
    }
}
