import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import TestSupport
import Testing
import Harness
@testable import HarnessFlows
@testable import HarnessSteps

@Suite struct RunIndexWriterTests {
    static func results() -> [FlowResult] {
        let evil = "<script>alert('x')</script> & \"quotes\" \u{1B}[31m"
        let failure = FlowFailure(
            message: evil + "\nsecond line",
            position: SourcePosition(file: "F/<b>.flow", line: 2, column: 1),
            artifacts: FlowArtifacts(cast: "F/b b/session.cast", screenText: "F/b/screen.txt", screenSVG: "javascript:alert(1)/screen.svg",
                                     journal: "F/b/journal.json", events: "F/b/events.json")
        )
        return [
            FlowResult(flow: flowFile("F/a.flow"), attempts: [FlowAttempt(number: 1, duration: .milliseconds(420), outcome: .passed)]),
            FlowResult(flow: flowFile("F/<b>.flow"), attempts: [FlowAttempt(number: 1, duration: .seconds(1), outcome: .failed(failure))]),
            FlowResult(flow: flowFile("F/c.flow"), attempts: [
                FlowAttempt(number: 1, duration: .seconds(1), outcome: .failed(FlowFailure(message: "timeout"))),
                FlowAttempt(number: 2, duration: .seconds(1), outcome: .passed),
            ]),
            FlowResult(flow: flowFile("F/d.flow"), attempts: [FlowAttempt(number: 1, duration: .zero, outcome: .skipped(reason: "no <bc>"))]),
        ]
    }

    @Test func everythingIsEscapedAndLinksStayRelative() throws {
        let html = RunIndexWriter.html(results: Self.results(), title: "Nightly <run>")
        #expect(!html.contains("<script>"))
        #expect(!html.contains("<b>"))
        #expect(!html.contains("\u{1B}"))
        #expect(html.contains("&lt;script&gt;alert(&apos;x&apos;)&lt;/script&gt;") || html.contains("&lt;script&gt;alert('x')&lt;/script&gt;"))
        #expect(html.contains("Nightly &lt;run&gt;"))
        #expect(html.contains("<img src=\"./javascript%3Aalert%281%29/screen.svg\""))
        #expect(html.contains("href=\"./F/b%20b/session.cast\""))
        #expect(html.contains("href=\"./F/b/journal.json\"") && html.contains("href=\"./F/b/events.json\"") && html.contains("href=\"./F/b/screen.txt\""))
        #expect(html.contains("1 passed, 1 failed, 1 flaky, 1 skipped"))
        #expect(html.contains("no &lt;bc&gt;"))
        #expect(html.contains("F/&lt;b&gt;.flow:2:1"))
        #expect(!html.contains("<script"))
    }

    @Test func pageIsWellFormedXMLWithOneRowPerFlowAndSectionsForFailures() throws {
        let html = RunIndexWriter.html(results: Self.results())
        // The page is written as XHTML-compatible markup, so an XML parser can check it.
        let body = html.replacingOccurrences(of: "<!DOCTYPE html>\n", with: "")
            .replacingOccurrences(of: "<meta charset=\"utf-8\">", with: "<meta charset=\"utf-8\"/>")
            .replacingOccurrences(of: "initial-scale=1\">", with: "initial-scale=1\"/>")
        let fixed = body.replacingOccurrences(of: #"(<img [^>]*[^/])>"#, with: "$1/>", options: .regularExpression)
        let root = try #require(try XMLDocument(data: Data(fixed.utf8), options: []).rootElement())
        let rows = try root.nodes(forXPath: "//tbody/tr")
        #expect(rows.count == 4)
        let sections = try root.nodes(forXPath: "//section")
        #expect(sections.count == 2)
        #expect(try root.nodes(forXPath: "//section//img").count == 1)
    }

    @Test func writesIndexIntoTheFolder() throws {
        let folder = try TemporaryDirectory(prefix: "flowtests").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try RunIndexWriter.write(Self.results(), toFolder: folder + "/artifacts")
        #expect(path == folder + "/artifacts/index.html")
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("<table>"))
    }
}
