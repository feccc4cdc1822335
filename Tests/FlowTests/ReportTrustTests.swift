import Foundation
import Testing
import HarnessCore
@testable import HarnessFlows
@testable import HarnessSteps

/// The report page treats what it shows as data: its policy lets only its own script run (by
/// its SHA-256), pictures read from files or shards are images of `data:` URIs, and links to
/// a flow's files stay inside the report's folder.
@Suite struct ReportTrustTests {
    /// FIPS 180-4 and NIST's examples (one block, two blocks, the 896-bit message) and the
    /// block boundaries around the length field.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
        (String(repeating: "a", count: 55), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (String(repeating: "a", count: 56), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        (String(repeating: "a", count: 64), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
    ])
    func sha256MatchesTheKnownDigests(message: String, digest: String) {
        #expect(SHA256.hex(of: message) == digest)
    }

    @Test func cspSourceIsTheBase64OfTheDigest() {
        #expect(SHA256.cspSource(of: "abc") == "'sha256-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0='")
    }

    @Test func pageCarriesAStrictPolicyThatAllowsItsOwnScriptByHash() throws {
        let html = RunReportPage.html(RunReport(title: "t"))
        let attribute = try #require(html.firstMatch(of: /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/).map { String($0.1) })
        let policy = attribute.replacingOccurrences(of: "&apos;", with: "'")
        let directives = Dictionary(policy.split(separator: ";").map { part -> (String, String) in
            let words = part.split(separator: " ", maxSplits: 1).map(String.init)
            return (words[0], words.count > 1 ? words[1] : "")
        }, uniquingKeysWith: { first, _ in first })
        #expect(directives.count == 7)
        #expect(directives["default-src"] == "'none'")
        #expect(directives["object-src"] == "'none'" && directives["base-uri"] == "'none'" && directives["form-action"] == "'none'")
        #expect(directives["img-src"] == "data:")
        #expect(directives["style-src"] == "'unsafe-inline'")
        // The hash is that of the script element's text, as the browser computes it.
        let script = try #require(html.firstMatch(of: /<script>(.*?)<\/script>/.dotMatchesNewlines()).map { String($0.1) })
        #expect(directives["script-src"] == SHA256.cspSource(of: script))
        #expect(!policy.contains("unsafe-eval") && !(directives["script-src"] ?? "").contains("unsafe-inline"))
        #expect(html.range(of: "Content-Security-Policy")!.lowerBound < html.range(of: "<style>")!.lowerBound, "the policy comes first")
        #expect(!RunReportPage.script.contains("innerHTML"), "frames are never inserted as markup")
    }

    @Test func snapshotPicturesAreImagesNeverMarkup() throws {
        let evil = #"<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>"#
        let change = RunReport.SnapshotChange(reference: "a/__Snapshots__/f/f.x.txt", expected: "e", actual: "a",
                                              expectedSVG: evil, actualSVG: evil, acceptCommand: "harness snapshots accept")
        let attempt = RunReport.Attempt(number: 1, seconds: 1, outcome: "failed", message: "m")
        var flow = RunReport.Flow(path: "f.flow", status: .failed, seconds: 1, attempts: [attempt])
        flow.snapshots = [change]
        let html = RunReportPage.html(RunReport(flows: [flow]))
        #expect(!html.contains("onload") && !html.contains("alert"))
        #expect(html.components(separatedBy: "<script").count == 3, "only the frames' and the page's own scripts")
        let uri = "data:image/svg+xml;base64," + Data(evil.utf8).base64EncodedString()
        #expect(html.components(separatedBy: "<img alt=\"expected picture\" src=\"\(uri)\">").count == 2)
        #expect(html.components(separatedBy: "<img alt=\"actual picture\" src=\"\(uri)\">").count == 2)
    }

    @Test(arguments: [
        ("F/a.cast", "F/a.cast"), ("./F/./a.cast", "F/a.cast"), ("F//x/../a.cast", "F/a.cast"), ("shard-1/F/a.cast", "shard-1/F/a.cast"),
        ("../../../etc/passwd", nil), ("/etc/shadow", nil), ("F/../../x", nil), ("..", nil), ("", nil), (".", nil),
        ("F\\..\\..\\x", nil), ("a\0b", nil),
    ] as [(String, String?)])
    func artifactLinksStayInsideTheReportFolder(path: String, link: String?) {
        #expect(ArtifactLink.inside(path) == link)
    }

    @Test func artifactPathsThatLeaveTheFolderAreNoLinks() {
        let artifacts = FlowArtifacts(cast: "../../../etc/passwd", screenText: "/etc/shadow", screenSVG: "F/../../root/x.svg", journal: "F/journal.json")
        let attempt = RunReport.Attempt(number: 1, seconds: 1, outcome: "failed", message: "m", artifacts: artifacts)
        let report = RunReport(flows: [RunReport.Flow(path: "f.flow", status: .failed, seconds: 1, attempts: [attempt])])
        let html = RunReportPage.html(report)
        #expect(!html.contains("passwd") && !html.contains("shadow") && !html.contains("root/"))
        #expect(html.contains("<a href=\"./F/journal.json\">stub journal</a>"))
        let kept = report.keepingArtifactLinksInside()
        #expect(kept.report.flows[0].attempts[0].artifacts == FlowArtifacts(journal: "F/journal.json"))
        #expect(kept.dropped == [#"f.flow attempt 1: "../../../etc/passwd""#, #"f.flow attempt 1: "/etc/shadow""#,
                                 #"f.flow attempt 1: "F/../../root/x.svg""#])

        let result = FlowResult(flow: FlowFile(path: "/x/f.flow", relativePath: "f.flow"), attempts: [
            FlowAttempt(number: 1, duration: .seconds(1), outcome: .failed(FlowFailure(message: "m", position: nil, artifacts: artifacts))),
        ])
        let index = RunIndexWriter.html(results: [result])
        #expect(!index.contains("passwd") && !index.contains("shadow") && !index.contains("root/"))
        #expect(index.contains("Content-Security-Policy") && index.contains("script-src &apos;none&apos;"))
    }
}
