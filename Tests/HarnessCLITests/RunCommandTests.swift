import Foundation
import TestSupport
import Testing
import Harness
@testable import HarnessFlows
@testable import HarnessSteps

/// `harness run`, `merge-junit` and `replay`, run as the built executable.
@Suite struct RunCommandTests {
    /// A suite with a passing, a failing, a flaky and a skipped flow.
    ///
    /// bc ends on `quit`, not ctrl-d: between two lines readline puts the terminal back in
    /// canonical mode, and a ctrl-d that arrives then is taken by the terminal as an end of
    /// file that readline, back in raw mode, reads as a NUL; bc then waits for ever. `quit`
    /// is ordinary text, read whichever mode the terminal is in when it arrives.
    func makeMixedSuite() throws -> FlowFixture {
        let fixture = try FlowFixture()
        try fixture.write("""
            app sh -c "echo one; exec cat"
            launch
            expect "one"
            """, at: "suite/pass-one.flow")
        try fixture.write("""
            app bc -q
            launch
            type "6*7"
            press enter
            expect "42"
            type "quit"
            press enter
            exit 0
            """, at: "suite/nested/pass-two.flow")
        try fixture.write("""
            app sh -c "echo 'the wrong text'; exec cat"
            launch
            expect "the wrong text"
            timeout 200ms
            expect "the right text"
            """, at: "suite/fail.flow")
        try fixture.write("""
            #!/bin/sh
            if [ -e marker ]; then echo second; exec cat; fi
            : > marker
            echo first
            exit 1
            """, at: "suite/flaky.sh")
        try fixture.write("""
            app sh flaky.sh
            launch
            expect "second"
            """, at: "suite/flaky.flow")
        try fixture.write("""
            app not-installed-anywhere-xyz
            launch
            """, at: "suite/skip.flow")
        return fixture
    }

    @Test func runReportsProgressSummaryJUnitAndArtifacts() async throws {
        let fixture = try makeMixedSuite()
        defer { fixture.remove() }
        let output = try await runHarness(
            ["run", "suite", "--retries", "1", "--jobs", "2", "--junit", "out/junit.xml", "--artifacts", "out/artifacts"],
            in: fixture.folder)
        #expect(output.status == 1)
        #expect(output.lastLine == "2 passed, 1 failed, 1 flaky, 1 skipped", "\(output.stdout)\(output.stderr)")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Running 5 flows on 2 workers")
        // Each line starts with its place among the finished flows, `[3/5]`.
        func line(_ text: String) -> String? { lines.first { $0.firstMatch(of: #/^\[[1-5]\/5\] /#) != nil && $0.contains("] " + text) } }
        #expect(line("✓ suite/pass-one.flow (") != nil)
        #expect(line("✗ suite/fail.flow (")?.hasSuffix("2 attempts): expect \"the right text\": Timed out after 200 ms waiting for text \"the right text\".") == true)
        #expect(line("~ suite/flaky.flow (flaky, 2 attempts") != nil)
        #expect(line("- suite/skip.flow (skipped): not-installed-anywhere-xyz is not installed (not found in PATH)")?.hasSuffix("(not found in PATH)") == true)
        #expect(output.stdout.contains("suite/fail.flow:5:1: expect \"the right text\""))

        // JUnit, parsed back.
        let report = try JUnitReader.read(path: fixture.folder + "/out/junit.xml")
        #expect(report.tests == 5)
        #expect(report.failures == 1)
        #expect(report.flaky == 1)
        #expect(report.skipped == 1)

        // Artifacts of the failed flow: a valid asciicast, the screen as text and SVG, the index.
        let artifacts = fixture.folder + "/out/artifacts"
        let cast = try AsciicastReader.read(path: artifacts + "/suite/fail.attempt2.cast")
        #expect(cast.header.version == 2 && cast.header.width == 80 && cast.header.height == 24)
        #expect(cast.events.contains { $0.kind == .output && $0.data.contains("the wrong text") })
        let firstCast = try String(contentsOfFile: artifacts + "/suite/fail.cast", encoding: .utf8)
        for line in firstCast.split(separator: "\n") {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed])) != nil)
        }
        let screen = try String(contentsOfFile: artifacts + "/suite/fail.attempt2.screen.txt", encoding: .utf8)
        #expect(screen.contains("│the wrong text"))
        #expect(FileManager.default.fileExists(atPath: artifacts + "/suite/fail.attempt2.screen.svg"))
        let index = try String(contentsOfFile: artifacts + "/index.html", encoding: .utf8)
        #expect(index.contains("suite/fail.flow") && index.contains("suite/flaky.flow"))

        // The recording replays to the failing screen.
        let replay = try await runHarness(["replay", "out/artifacts/suite/fail.cast"], in: fixture.folder)
        #expect(replay.status == 0)
        #expect(replay.stdout.hasPrefix("the wrong text\n"))
        let atStart = try await runHarness(["replay", "out/artifacts/suite/fail.cast", "--at", "0"], in: fixture.folder)
        #expect(atStart.status == 0)
        #expect(!atStart.stdout.contains("the wrong text"))
    }

    @Test func parseErrorsOfEveryFileAreReportedBeforeAnythingRuns() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try fixture.write("app sh -c \"touch ran\"\nlaunch\n", at: "flows/a-good.flow")
        try fixture.write("app sh\nlaunh\npress entr\n", at: "flows/b-bad.flow")
        try fixture.write("launch\n", at: "flows/c-bad.flow")
        let output = try await runHarness(["run", "flows"], in: fixture.folder)
        #expect(output.status == 2)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.contains("flows/b-bad.flow:2:1: unknown command \"launh\" (did you mean \"launch\"?)"))
        #expect(output.stderr.contains("flows/b-bad.flow:3:7: unknown key \"entr\" (did you mean \"enter\"?)"))
        #expect(output.stderr.contains("flows/c-bad.flow:1:1: the flow has no app line"))
        #expect(!FileManager.default.fileExists(atPath: fixture.folder + "/flows/ran"))
    }

    @Test(arguments: [
        (["run"], "missing PATHS"),
        (["run", "x", "--jobs", "zero"], "--jobs \"zero\""),
        (["run", "x", "--timeout", "5"], "--timeout \"5\""),
        (["run", "x", "--record", "sometimes"], "--record \"sometimes\""),
        (["run", "x", "--shard", "3/2"], "--shard 3/2"),
        (["run", "x", "--filter", "(("], "--filter: invalid regex"),
        (["run", "x", "--bogus"], "unknown option --bogus"),
        (["merge-junit", "out.xml"], "expected OUT and at least one IN"),
        (["replay"], "missing FILE.cast"),
        (["record", "--out", "x.flow"], "missing the program"),
        (["frobnicate"], "unknown subcommand"),
    ])
    func usageErrorsExit64WithUsage(arguments: [String], message: String) async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try FileManager.default.createDirectory(atPath: fixture.folder + "/x", withIntermediateDirectories: true)
        let output = try await runHarness(arguments, in: fixture.folder)
        #expect(output.status == 64)
        #expect(output.stderr.contains(message))
        #expect(output.stderr.contains("usage:"))
    }

    @Test func shardsCoverEveryFlowOnceAndMergeBack() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let names = (1...9).map { "flow-\($0)" }
        for name in names {
            try fixture.write("app sh -c \"echo \(name); exec cat\"\nlaunch\nexpect \"\(name)\"\n", at: "many/\(name).flow")
        }
        var seen: [String] = []
        for index in 1...3 {
            let output = try await runHarness(["run", "many", "--shard", "\(index)/3", "--junit", "shard\(index).xml"], in: fixture.folder)
            #expect(output.status == 0)
            let report = try JUnitReader.read(path: fixture.folder + "/shard\(index).xml")
            seen += report.suites.flatMap(\.cases).map(\.name)
        }
        #expect(seen.sorted() == names.sorted())
        let merged = try await runHarness(["merge-junit", "all.xml", "shard1.xml", "shard2.xml", "shard3.xml"], in: fixture.folder)
        #expect(merged.status == 0)
        #expect(merged.stdout == "Merged 3 reports into all.xml: 9 tests, 0 failures\n")
        let report = try JUnitReader.read(path: fixture.folder + "/all.xml")
        #expect(report.tests == 9)
        #expect(Set(report.suites.flatMap(\.cases).map(\.name)) == Set(names))
    }

    @Test func durationsBalanceShardsAndTheHistoryGrowsByOneRunEach() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let names = (1...6).map { "flow-\($0)" }
        for name in names {
            try fixture.write("app sh -c \"echo \(name); exec cat\"\nlaunch\nexpect \"\(name)\"\n", at: "many/\(name).flow")
        }
        // A JUnit report of an earlier run: flow-1 took as long as all the others together.
        var cases = names.map { name in
            JUnitTestCase(classname: "many", name: name, file: "many/\(name).flow", time: 1, result: .passed)
        }
        cases[0].time = 5
        try JUnitWriter.write(JUnitReport(name: "earlier", suites: [JUnitTestSuite(name: "earlier", cases: cases)]),
                              to: fixture.folder + "/earlier.xml")
        var seen: [[String]] = []
        for index in 1...2 {
            let output = try await runHarness(
                ["run", "many", "--shard", "\(index)/2", "--durations", "earlier.xml", "--junit", "s\(index).xml", "--history", "history"],
                in: fixture.folder)
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stdout.contains("balanced by earlier durations (expected 5.0s of 10.0s)"), "\(output.stdout)")
            seen.append(try JUnitReader.read(path: fixture.folder + "/s\(index).xml").suites.flatMap(\.cases).map(\.name).sorted())
        }
        // The slow flow alone in one shard, the five others in the other.
        #expect(seen.contains(["flow-1"]))
        #expect(seen.contains(["flow-2", "flow-3", "flow-4", "flow-5", "flow-6"]))
        let runs = try FlowHistory(directory: fixture.folder + "/history").runs()
        #expect(runs.count == 2)
        #expect(Set(runs.compactMap(\.shard)) == ["1/2", "2/2"])
        #expect(runs.flatMap(\.flows).map(\.path).sorted() == names.map { "many/\($0).flow" })

        let missing = try await runHarness(["run", "many", "--shard", "1/2", "--durations", "nowhere.xml"], in: fixture.folder)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("--durations"))
        let withoutShard = try await runHarness(["run", "many", "--durations", "earlier.xml"], in: fixture.folder)
        #expect(withoutShard.status == 64)
    }

    @Test func filterKeepsMatchingFlows() async throws {
        let fixture = try makeMixedSuite()
        defer { fixture.remove() }
        let output = try await runHarness(["run", "suite", "--filter", "pass-"], in: fixture.folder)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.lastLine == "2 passed, 0 failed")
    }

    @Test func theBundledFlowsPassAsTheReadmeRunsThem() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let output = try await runHarness(["run", "Tests/Flows"], in: root.path, environment: ["CI": "1"])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        let flows = FileManager.default.enumerator(atPath: root.appendingPathComponent("Tests/Flows").path)?
            .compactMap { $0 as? String }.filter { $0.hasSuffix(".flow") } ?? []
        let total = flows.count
        // A flow whose program is a bare name found nowhere in PATH is skipped (bc, python3,
        // vim, the Textual app that Tests/Flows/third-party/setup.sh installs).
        let skipped = try flows.filter { flow in
            let text = try String(contentsOf: root.appendingPathComponent("Tests/Flows/\(flow)"), encoding: .utf8)
            guard let app = text.split(separator: "\n").first(where: { $0.hasPrefix("app ") }),
                  let program = app.split(separator: " ").dropFirst().first, !program.contains("/") else { return false }
            // runHarness passes this process's environment on: its PATH decides.
            let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
            return !path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(program)") }
        }.count
        #expect(total >= 10)
        #expect(output.lastLine == "\(total - skipped) passed, 0 failed" + (skipped > 0 ? ", \(skipped) skipped" : ""))
        for flow in ["idle", "loading", "error", "loaded", "try-again", "scroll-and-quit"] {
            #expect(output.stdout.contains("✓ Tests/Flows/\(flow).flow ("))
        }
    }
}
