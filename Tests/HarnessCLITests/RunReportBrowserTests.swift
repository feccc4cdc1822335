import Foundation
import TestSupport
import Testing
import Harness
import HarnessCore
@testable import HarnessFlows
@testable import HarnessSteps

/// The run report (`harness run --artifacts`, `harness merge-reports`) loaded in headless
/// Chromium: the page's script ran, the failing flow's timeline shows its steps, the failing
/// step, the stub request and the bridge events, and the replay player drew its frames.
@Suite struct RunReportBrowserTests {
    /// The sample app against a failing service; the flow then expects a text that never comes.
    static let failingFlow = """
        app ${HARNESS_PRODUCTS_DIR}/todo
        size 80x24
        timeout 60s
        stub GET /todos 500 text "database down"

        launch
        expect "[ Start ]"
        press enter
        expect "Oops"
        expect "[ Try later ]" within 500ms
        event state sequence idle,loading,error
        press q
        exit 0
        """

    func makeSuite() throws -> FlowFixture {
        let fixture = try FlowFixture()
        try fixture.write(Self.failingFlow, at: "suite/broken.flow")
        try fixture.write("""
            app sh -c "echo hello; exec cat"
            launch
            expect "hello"
            type "typed"
            expect "typed"
            """, at: "suite/echo.flow")
        return fixture
    }

    @Test(.enabled(if: HeadlessChromium.isInstalled, "chromium is not installed (.ci/run installs it: apt-get install -y chromium)"))
    func failingFlowShowsTimelineRequestsEventsAndReplayInChromium() async throws {
        let fixture = try makeSuite()
        defer { fixture.remove() }
        let output = try await runHarness(["run", "suite", "--jobs", "2", "--artifacts", "out", "--trace", "on"], in: fixture.folder)
        #expect(output.status == 1, "\(output.stdout)\n\(output.stderr)")

        // results.json: the data the page was made from, read back as merge-reports does.
        let report = try RunReportWriter.read(folder: fixture.folder + "/out")
        let broken = try #require(report.flows.first { $0.path == "suite/broken.flow" })
        let trace = try #require(broken.attempts.last?.trace)
        #expect(trace.steps.first { $0.result == .failed }?.line == 10)
        #expect(trace.requests.map { "\($0.method) \($0.target) \($0.status)" } == ["GET /todos 500"])
        #expect(trace.messages.filter { $0.kind == .event }.map(\.value) == ["\"idle\"", "\"loading\"", "\"error\""])
        #expect((trace.replay?.frames.count ?? 0) >= 2)
        #expect(report.flows.first { $0.path == "suite/echo.flow" }?.attempts.first?.trace != nil, "--trace on traces passing flows")
        #expect(Set(report.frames).count == report.frames.count, "frames are unique")

        let dom = try await HeadlessChromium.dumpDOM(of: fixture.folder + "/out/index.html")
        #expect(dom.contains("data-ready=\"1\""), "the page's script ran to its end")
        // The failing flow's section is open, its failing step marked with the message.
        let section = try #require(Self.element(in: dom, from: "<details class=\"flow failed\"", to: "</details>"))
        #expect(section.contains(" open"))
        let failing = try #require(Self.element(in: section, from: "<tr class=\"step failed failing\"", to: "</tr>"))
        #expect(failing.contains("expect \"[ Try later ]\" within 500ms") && failing.contains("failed here"))
        #expect(section.contains("Timed out after 500 ms waiting for text"))
        // Steps with their lines, in time order, then the lines never reached.
        let stepRows = Self.elements(in: section, from: "<tr class=\"step ", to: "</tr>")
        #expect(stepRows.count == 12)
        #expect(stepRows.filter { $0.contains("not run") }.count == 3)
        // The stub request and the bridge events on the same timeline.
        let request = try #require(Self.element(in: section, from: "<tr class=\"request\"", to: "</tr>"))
        #expect(request.contains("GET /todos") && request.contains(">500<"))
        #expect(Self.elements(in: section, from: "<tr class=\"message event\"", to: "</tr>").count == 3)
        // Screens after the steps, drawn by the script from the frame table.
        #expect(section.contains("class=\"thumb\"") && Self.elements(in: section, from: "<button type=\"button\" class=\"thumb\"", to: "</button>")
            .allSatisfy { $0.contains("<img alt=\"screen\" src=\"data:image/svg+xml;charset=utf-8,%3Csvg") })
        // The player: its frame count, the frame shown (the last: the screen as it failed), drawn.
        let player = try #require(Self.element(in: section, from: "<div class=\"player\"", to: "<div class=\"controls\">"))
        let count = try #require(player.firstMatch(of: /data-frame-count="(\d+)"/).map { Int($0.1)! })
        #expect(count == trace.replay?.frames.count)
        #expect(player.contains("data-frame=\"\(count - 1)\""))
        #expect(Self.shownScreen(in: player)?.contains("Oops") == true)
        // Filters and totals.
        #expect(dom.contains("data-filter=\"failed\">Failed <b>1</b>"))
        #expect(dom.contains("data-load-ms=\""))
    }

    @Test func mergeReportsJoinsShardsWithTheirFilesJUnitAndHistory() async throws {
        let fixture = try makeSuite()
        defer { fixture.remove() }
        var shardOutputs: [String] = []  // shown when a check below fails
        for index in 1...2 {
            let output = try await runHarness(["run", "suite", "--shard", "\(index)/2", "--artifacts", "shard-\(index)"], in: fixture.folder)
            #expect(output.status <= 1, "\(output.stderr)")
            shardOutputs.append("shard \(index)/2:\n\(output.stdout)\(output.stderr)")
        }
        let merged = try await runHarness(["merge-reports", "merged", "shard-1", "shard-2", "--history", "history"], in: fixture.folder)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout.contains("Merged 2 reports: 1 passed, 1 failed"))

        let report = try RunReportWriter.read(folder: fixture.folder + "/merged")
        #expect(report.flows.map(\.path) == ["suite/broken.flow", "suite/echo.flow"])
        #expect(report.shards.sorted() == ["1/2", "2/2"])
        let broken = try #require(report.flows.first)
        #expect(broken.history?.count == 1)
        let cast = try #require(broken.attempts.first?.artifacts?.cast, "\(shardOutputs.joined(separator: "\n"))")
        #expect(cast.hasPrefix("shard-"))
        #expect(FileManager.default.fileExists(atPath: fixture.folder + "/merged/" + cast), "links stay valid")
        let trace = try #require(broken.attempts.first?.trace)
        for frame in trace.steps.compactMap(\.frame) + (trace.replay?.frames ?? []) {
            #expect(report.frames.indices.contains(frame))
        }
        let junit = try JUnitReader.read(path: fixture.folder + "/merged/junit.xml")
        #expect(junit.tests == 2 && junit.failures == 1)
        let history = try FlowHistory(directory: fixture.folder + "/history").runs()
        #expect(history.count == 1 && history[0].flows.count == 2)
        let page = try String(contentsOfFile: fixture.folder + "/merged/index.html", encoding: .utf8)
        #expect(page.contains("2 shards (1/2, 2/2)"))
    }

    // MARK: - Reading the DOM

    /// The SVG a player shows: its screen's image, a `data:` URI the script made from the frame.
    static func shownScreen(in player: String) -> String? {
        player.firstMatch(of: /<div class="screen"><img alt="screen" src="data:image\/svg\+xml;charset=utf-8,([^"]*)">/)
            .flatMap { String($0.1).removingPercentEncoding }
    }

    /// The first text from `start` up to and including `end`.
    static func element(in text: String, from start: String, to end: String) -> String? {
        guard let lower = text.range(of: start), let upper = text.range(of: end, range: lower.upperBound..<text.endIndex) else { return nil }
        return String(text[lower.lowerBound..<upper.upperBound])
    }

    /// Every such text.
    static func elements(in text: String, from start: String, to end: String) -> [String] {
        var found: [String] = []
        var rest = text[...]
        while let lower = rest.range(of: start), let upper = rest.range(of: end, range: lower.upperBound..<rest.endIndex) {
            found.append(String(rest[lower.lowerBound..<upper.upperBound]))
            rest = rest[upper.upperBound...]
        }
        return found
    }
}

/// `--trace` and `merge-reports` usage errors.
@Suite struct RunReportOptionTests {
    @Test func traceValuesAreCheckedAndTraceOnNeedsArtifacts() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try fixture.write("app sh -c \"echo hi; exec cat\"\nlaunch\nexpect \"hi\"\n", at: "suite/a.flow")
        let bad = try await runHarness(["run", "suite", "--trace", "sometimes", "--artifacts", "out"], in: fixture.folder)
        #expect(bad.status == 64 && bad.stderr.contains("expected on, off or retain-on-failure"))
        let noArtifacts = try await runHarness(["run", "suite", "--trace", "on"], in: fixture.folder)
        #expect(noArtifacts.status == 64 && noArtifacts.stderr.contains("it needs --artifacts"))
        let notAReport = try await runHarness(["merge-reports", "merged", "suite"], in: fixture.folder)
        #expect(notAReport.status == 1 && notAReport.stderr.contains("no shard folder holds a results.json"))
        // Default (off): a passing flow keeps no timeline, so the report has no section for it.
        let run = try await runHarness(["run", "suite", "--artifacts", "out"], in: fixture.folder)
        #expect(run.status == 0)
        // A shard folder without a report (a crashed shard) is left out; the rest is merged.
        let partial = try await runHarness(["merge-reports", "merged", "out", "suite"], in: fixture.folder)
        #expect(partial.status == 1 && partial.stderr.contains("left out"))
        #expect(partial.stdout.contains("Merged 1 report: 1 passed, 0 failed"))
        let report = try RunReportWriter.read(folder: fixture.folder + "/out")
        #expect(report.flows.count == 1 && report.flows[0].attempts[0].trace == nil && report.frames.isEmpty)
    }
}
