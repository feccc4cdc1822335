import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import TestSupport
import Testing
import Harness
@testable import HarnessFlows
@testable import HarnessSteps

@Suite struct JUnitTests {
    static func results() -> [FlowResult] {
        let failure = FlowFailure(
            message: "expected \"Done\" <within> 5s & \"more\"\n\u{1B}[31mred\u{1B}[0m \u{0} ]]> end",
            position: SourcePosition(file: "Tests/Flows/b.flow", line: 7, column: 3),
            artifacts: FlowArtifacts(cast: "b/session.cast", screenText: "b/screen.txt", screenSVG: "b/screen.svg")
        )
        func flow(_ path: String, _ outcomes: [AttemptOutcome]) -> FlowResult {
            FlowResult(flow: flowFile(path), attempts: outcomes.enumerated().map {
                FlowAttempt(number: $0.offset + 1, duration: .milliseconds(100 * ($0.offset + 1)), outcome: $0.element)
            })
        }
        return [
            flow("Tests/Flows/a.flow", [.passed]),
            flow("Tests/Flows/b.flow", [.failed(failure), .failed(failure)]),
            flow("Tests/Flows/sub/c.flow", [.failed(FlowFailure(message: "timeout")), .passed]),
            flow("root.flow", [.skipped(reason: "needs \"bc\"")]),
        ]
    }

    func document(_ xml: String) throws -> XMLDocument {
        try XMLDocument(data: Data(xml.utf8), options: [])
    }

    @Test func writerProducesWellFormedJUnitWithCounts() throws {
        let xml = JUnitWriter.xml(for: JUnitReport(results: Self.results(), timestamp: Date(timeIntervalSince1970: 0), hostname: "ci-1"))
        let doc = try document(xml)
        let root = try #require(doc.rootElement())
        #expect(root.name == "testsuites")
        #expect(root.attribute(forName: "tests")?.stringValue == "4")
        #expect(root.attribute(forName: "failures")?.stringValue == "1")
        #expect(root.attribute(forName: "skipped")?.stringValue == "1")
        let suite = try #require(root.elements(forName: "testsuite").first)
        #expect(suite.attribute(forName: "timestamp")?.stringValue == "1970-01-01T00:00:00Z")
        #expect(suite.attribute(forName: "hostname")?.stringValue == "ci-1")
        let cases = suite.elements(forName: "testcase")
        #expect(cases.map { $0.attribute(forName: "classname")?.stringValue } == ["Tests.Flows", "Tests.Flows", "Tests.Flows.sub", "flows"])
        #expect(cases.map { $0.attribute(forName: "name")?.stringValue } == ["a", "b", "c", "root"])
        #expect(cases[1].attribute(forName: "time")?.stringValue == "0.300")
        let failure = try #require(cases[1].elements(forName: "failure").first)
        #expect(failure.attribute(forName: "type")?.stringValue == "FlowFailure")
        #expect(failure.attribute(forName: "message")?.stringValue == "Tests/Flows/b.flow:7:3: expected \"Done\" <within> 5s & \"more\"")
        #expect(failure.stringValue?.contains("␛[31mred␛[0m ␀ ]]> end") == true)
        #expect(failure.stringValue?.contains("recording: b/session.cast") == true)
        #expect(cases[1].elements(forName: "rerunFailure").count == 1)
        #expect(cases[2].elements(forName: "failure").isEmpty)
        #expect(cases[2].elements(forName: "flakyFailure").first?.attribute(forName: "message")?.stringValue == "timeout")
        #expect(cases[2].elements(forName: "system-out").first?.stringValue?.contains("attempt 2: passed") == true)
        #expect(cases[3].elements(forName: "skipped").first?.attribute(forName: "message")?.stringValue == "needs \"bc\"")
        let properties = cases[2].elements(forName: "properties").first?.elements(forName: "property") ?? []
        #expect(properties.map { $0.attribute(forName: "value")?.stringValue } == ["flaky", "2"])
    }

    @Test func readerRoundTripsTheWriter() throws {
        let report = JUnitReport(results: Self.results())
        let read = try JUnitReader.parse(Data(JUnitWriter.xml(for: report).utf8))
        #expect(read.tests == 4 && read.failures == 1 && read.skipped == 1 && read.flaky == 1 && read.errors == 0)
        #expect(read.suites.count == 1)
        let expectedCases = report.suites[0].cases.map { testCase -> JUnitTestCase in
            // Control characters come back as their visible pictures, times at millisecond precision.
            var copy = testCase
            copy.time = (testCase.time * 1000).rounded() / 1000
            if case .failure(var detail) = copy.result {
                detail.body = XMLEscapingTests.pictures(detail.body)
                copy.result = .failure(detail)
            }
            copy.systemOut = copy.systemOut.map(XMLEscapingTests.pictures)
            copy.rerunFailures = copy.rerunFailures.map { var d = $0; d.body = XMLEscapingTests.pictures(d.body); return d }
            return copy
        }
        #expect(read.suites[0].cases == expectedCases)
    }

    @Test func mergeSumsCountsAndCombinesSuites() throws {
        let results = Self.results()
        let shardA = JUnitReport(results: Array(results[0..<2]))
        let shardB = JUnitReport(results: Array(results[2...]))
        let other = JUnitReport(name: "x", suites: [JUnitTestSuite(name: "other", cases: [
            JUnitTestCase(classname: "K", name: "n", time: 1, result: .error(JUnitFailureDetail(message: "m", type: "E", body: "b"))),
        ])])
        let merged = JUnitMerger.merge([shardB, other, shardA])
        #expect(merged.suites.map(\.name) == ["harness", "other"])
        #expect(merged.tests == 5 && merged.failures == 1 && merged.errors == 1 && merged.skipped == 1 && merged.flaky == 1)
        #expect(merged.suites[0].cases.map(\.name) == ["a", "b", "c", "root"])

        let folder = try TemporaryDirectory(prefix: "flowtests").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try JUnitWriter.write(shardA, to: folder + "/a.xml")
        try JUnitWriter.write(shardB, to: folder + "/b.xml")
        try JUnitMerger.mergeFiles(output: folder + "/all.xml", inputs: [folder + "/a.xml", folder + "/b.xml"])
        let root = try #require(try document(String(contentsOfFile: folder + "/all.xml", encoding: .utf8)).rootElement())
        #expect(root.attribute(forName: "tests")?.stringValue == "4")
        #expect(root.attribute(forName: "failures")?.stringValue == "1")
        #expect(root.elements(forName: "testsuite").count == 1)
    }

    @Test func readerAcceptsForeignDialects() throws {
        let xml = """
        <?xml version="1.0"?>
        <testsuite name="pytest" tests="3">
          <testcase classname="t.test_a" name="test_ok" time="0.1"/>
          <testcase classname="t.test_a" name="test_err" time="0.2"><error message="boom" type="ValueError">trace</error></testcase>
          <testcase classname="t.test_a" name="test_flaky" time="0.2"><flakyFailure message="once"><stackTrace>st</stackTrace></flakyFailure></testcase>
          <testsuite name="nested"><testcase name="inner"/></testsuite>
        </testsuite>
        """
        let report = try JUnitReader.parse(Data(xml.utf8))
        #expect(report.suites.map(\.name) == ["pytest", "nested"])
        #expect(report.tests == 4 && report.errors == 1 && report.flaky == 1)
        #expect(report.suites[0].cases[2].flakyFailures == [JUnitFailureDetail(message: "once", type: "", body: "st")])
    }

    @Test func readerErrors() throws {
        for malformed in ["<testsuites><testsuite>", "<a></b>", "garbage", "", "<a x=1/>", "<a>&#x1B;</a>"] {
            #expect(throws: JUnitReadError.self, "\(malformed)") { try JUnitReader.parse(Data(malformed.utf8)) }
        }
        #expect(throws: JUnitReadError.unexpectedRoot(source: "<junit>", element: "html")) { try JUnitReader.parse(Data("<html/>".utf8)) }
        #expect(throws: JUnitReadError.testCaseWithoutName(source: "<junit>", suite: "s")) {
            try JUnitReader.parse(Data("<testsuite name=\"s\"><testcase/></testsuite>".utf8))
        }
        #expect(throws: JUnitReadError.self) { try JUnitReader.read(path: "/nonexistent/x.xml") }
    }
}

@Suite struct XMLEscapingTests {
    /// What the escaping does to control characters.
    static func pictures(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map {
            $0.value < 0x20 && $0 != "\n" && $0 != "\t" && $0 != "\r" ? Unicode.Scalar(0x2400 + $0.value)! : $0
        }))
    }

    @Test func escapesMarkupQuotesAndControls() {
        #expect(XMLEscaping.text("a<b>&\"'") == "a&lt;b&gt;&amp;\"'")
        #expect(XMLEscaping.attribute("a<b>&\"'\n\t\r") == "a&lt;b&gt;&amp;&quot;&apos;&#10;&#9;&#13;")
        #expect(XMLEscaping.text("\u{1B}[0m\u{7}\u{0}\u{FFFE}") == "␛[0m␇␀\u{FFFD}")
        #expect(XMLEscaping.text("line\nnext\ttab") == "line\nnext\ttab")
    }

    @Test(arguments: ["plain", "<&>\"'", "\u{1B}\u{1}\u{1F}\u{7F}", "é😀", "a\r\nb"])
    func escapedTextParsesBack(text: String) throws {
        let xml = "<r a=\"\(XMLEscaping.attribute(text))\">\(XMLEscaping.text(text))</r>"
        let root = try #require(try XMLDocument(data: Data(xml.utf8), options: []).rootElement())
        #expect(root.attribute(forName: "a")?.stringValue == Self.pictures(text))
        #expect(root.stringValue == Self.pictures(text))
    }
}
