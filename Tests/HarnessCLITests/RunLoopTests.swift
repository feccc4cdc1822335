import Foundation
import TestSupport
import Testing
import Harness
@testable import HarnessFlows

/// The test loop of `harness run` (docs/FLOWS.md, "The test loop"): `--last-failed`,
/// `--repeat-each`, `--fail-on-flaky`, `--retry-isolated`, tags, `--grep`, `--matrix` and
/// `--watch`. Each flow appends its name to `runs.log` when it runs, so a test reads which flows
/// ran, how often and in which order.
@Suite struct RunLoopTests {
    /// `pass.flow` (tag fast), `fail.flow` (tags slow, broken), `flaky.flow` (fails its first
    /// run in a folder, then passes).
    func makeSuite() throws -> FlowFixture {
        let fixture = try FlowFixture()
        try fixture.write("""
            tag fast
            app sh -c "echo pass >> ../runs.log"
            launch pipes
            exit 0
            """, at: "suite/pass.flow")
        try fixture.write("""
            tag slow broken
            app sh -c "echo fail >> ../runs.log; exit 1"
            launch pipes
            exit 0
            """, at: "suite/fail.flow")
        try fixture.write("""
            app sh -c "echo flaky >> ../runs.log; [ -e ../flaky.marker ] && exit 0; : > ../flaky.marker; exit 1"
            launch pipes
            exit 0
            """, at: "suite/flaky.flow")
        return fixture
    }

    /// The flows that ran, in order, and forgets them.
    func runs(_ fixture: FlowFixture) -> [String] {
        let path = fixture.folder + "/runs.log"
        defer { try? FileManager.default.removeItem(atPath: path) }
        return ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    @Test(arguments: [["--artifacts", "out"], ["--history", "history"]])
    func lastFailedRunsOnlyWhatFailedLastTime(earlierRun: [String]) async throws {
        let fixture = try makeSuite()
        defer { fixture.remove() }
        let first = try await runHarness(["run", "suite", "--jobs", "1"] + earlierRun, in: fixture.folder)
        #expect(first.status == 1)
        #expect(runs(fixture).sorted() == ["fail", "flaky", "pass"])
        let again = try await runHarness(["run", "suite", "--jobs", "1", "--last-failed"] + earlierRun, in: fixture.folder)
        #expect(runs(fixture).sorted() == ["fail", "flaky"], "\(again.stdout)\(again.stderr)")
        #expect(again.lastLine == "1 passed, 1 failed")
    }

    @Test func lastFailedNeedsAnEarlierRunsFolder() async throws {
        let fixture = try makeSuite()
        defer { fixture.remove() }
        let output = try await runHarness(["run", "suite", "--last-failed"], in: fixture.folder)
        #expect(output.status == 64)
        #expect(output.stderr.contains("--last-failed reads the last run: it needs --history DIR or --artifacts DIR"))
    }

    @Test func repeatEachRunsEachFlowThatManyTimes() async throws {
        let fixture = try makeSuite()
        defer { fixture.remove() }
        let output = try await runHarness(["run", "suite/pass.flow", "--repeat-each", "3", "--junit", "junit.xml"], in: fixture.folder)
        #expect(output.status == 0)
        #expect(runs(fixture) == ["pass", "pass", "pass"])
        #expect(output.stdout.contains("suite/pass.flow (repeat 3)"))
        #expect(try JUnitReader.read(path: fixture.folder + "/junit.xml").tests == 3)
    }

    @Test func failOnFlakyFailsARunWithAFlakyFlow() async throws {
        let fixture = try makeSuite()
        defer { fixture.remove() }
        let tolerated = try await runHarness(["run", "suite/flaky.flow", "--retries", "1"], in: fixture.folder)
        #expect(tolerated.status == 0 && tolerated.lastLine == "0 passed, 0 failed, 1 flaky")
        try FileManager.default.removeItem(atPath: fixture.folder + "/flaky.marker")
        let strict = try await runHarness(["run", "suite/flaky.flow", "--retries", "1", "--fail-on-flaky"], in: fixture.folder)
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("harness run: --fail-on-flaky: 1 flaky flow (suite/flaky.flow)"))
    }

    /// On one worker the order shows it: a retry right after the failure, or after every flow.
    @Test func retryIsolatedRetriesAtTheEnd() async throws {
        let fixture = try makeSuite()
        defer { fixture.remove() }
        _ = try await runHarness(["run", "suite/flaky.flow", "suite/pass.flow", "--jobs", "1", "--retries", "1"], in: fixture.folder)
        #expect(runs(fixture) == ["flaky", "flaky", "pass"])
        try FileManager.default.removeItem(atPath: fixture.folder + "/flaky.marker")
        let isolated = try await runHarness(["run", "suite/flaky.flow", "suite/pass.flow", "--jobs", "1", "--retries", "1", "--retry-isolated"],
                                            in: fixture.folder)
        #expect(runs(fixture) == ["flaky", "pass", "flaky"])
        #expect(isolated.lastLine == "1 passed, 0 failed, 1 flaky")
        let alone = try await runHarness(["run", "suite", "--retry-isolated"], in: fixture.folder)
        #expect(alone.status == 64 && alone.stderr.contains("--retry-isolated runs the retries: it needs --retries N"))
    }

    @Test func tagsSelectAndSkipFlows() async throws {
        let fixture = try makeSuite()
        defer { fixture.remove() }
        _ = try await runHarness(["run", "suite", "--tag", "fast", "--tag", "broken"], in: fixture.folder)
        #expect(runs(fixture).sorted() == ["fail", "pass"])
        _ = try await runHarness(["run", "suite", "--skip-tag", "slow"], in: fixture.folder)
        #expect(runs(fixture).sorted() == ["flaky", "pass"])
        let none = try await runHarness(["run", "suite", "--tag", "nightly"], in: fixture.folder)
        #expect(none.status == 1 && none.stderr.contains("no flows under suite with tag nightly"))
        try fixture.write("tag a,b\napp true\nlaunch\n", at: "bad/t.flow")
        let bad = try await runHarness(["run", "bad"], in: fixture.folder)
        #expect(bad.status == 2 && bad.stderr.contains("a tag uses letters, digits, - and _"))
    }

    @Test func grepKeepsTheMatchingCases() async throws {
        let fixture = try makeSuite()
        defer { fixture.remove() }
        let output = try await runHarness(["run", "suite", "--grep", "pa.s"], in: fixture.folder)
        #expect(runs(fixture) == ["pass"])
        #expect(output.status == 0)
        let matrix = try await runHarness(["run", "suite/pass.flow", "--matrix", "theme=dark,light", "--grep", #"\[light\]$"#, "--list"],
                                          in: fixture.folder)
        #expect(matrix.stdout == "suite/pass.flow[light]\n")
    }

    /// Each case gets its size, theme (the terminal's `COLORFGBG`) and colour mode, and its name.
    @Test func matrixRunsEachFlowOncePerCombination() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try fixture.write("""
            matrix size=30x4,40x5 theme=dark,light
            app sh -c "echo $$(stty size) $${COLORFGBG-} $${NO_COLOR-color} >> ../runs.log && echo written; exec cat"
            launch
            expect "written"
            """, at: "m/case.flow")
        let output = try await runHarness(["run", "m", "--jobs", "1", "--matrix", "color=on,off", "--junit", "junit.xml"], in: fixture.folder)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(runs(fixture) == [
            "4 30 15;0 color", "4 30 15;0 1", "4 30 0;15 color", "4 30 0;15 1",
            "5 40 15;0 color", "5 40 15;0 1", "5 40 0;15 color", "5 40 0;15 1",
        ])
        let names = try JUnitReader.read(path: fixture.folder + "/junit.xml").suites.flatMap(\.cases).map(\.name)
        #expect(names.contains("case[40x5,light,nocolor]") && names.count == 8)
        let bad = try await runHarness(["run", "m", "--matrix", "theme=dim"], in: fixture.folder)
        #expect(bad.status == 64 && bad.stderr.contains(#"--matrix "theme=dim": expected themes dark or light"#))
    }

    /// A change of a fixture runs again the flow that reads it, and only it; SIGINT ends the watch.
    @Test func watchRunsAgainTheFlowsWhoseFilesChanged() async throws {
        let fixture = try makeSuite()
        defer { fixture.remove() }
        try fixture.write("""
            app cat input.txt
            stdin file input.txt
            launch pipes
            stdout contains "yes"
            exit 0
            """, at: "w/reads.flow")
        try fixture.write("yes\n", at: "w/input.txt")
        try fixture.write("app true\nlaunch pipes\nexit 0\n", at: "w/other.flow")
        let harness = try BackgroundHarness(["run", "w", "--jobs", "1", "--watch", "--timeout", "60s"], in: fixture.folder)
        defer { harness.stop() }
        try await harness.waitForOutput("Watching")
        try fixture.write("no\n", at: "w/input.txt")
        try await harness.waitForOutput("0 passed, 1 failed")
        harness.send(SIGINT)
        let output = try await harness.waitForExit()
        #expect(output.status == .exited(130))
        #expect(output.standardOutput.contains("Changed: \(fixture.folder)/w/input.txt\nRunning 1 flow on 1 worker"),
                "\(output.standardOutput)")
        #expect(output.standardOutput.contains("✗ w/reads.flow"))
    }

    /// A fixture changed while its flow runs makes a second run right after the first. The flow
    /// waits for the test, never for time: its program says it started through a FIFO, the test
    /// changes the fixture, then lets the program end through another FIFO. After the first
    /// run the harness either runs again (`Changed:`) or watches (`Watching`): the test reads
    /// which came first.
    @Test func watchRunsAgainAFlowWhoseFixtureChangedDuringTheRun() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try makeFIFOs(in: fixture.folder, "started", "gate")
        // The test holds the gate open for reading and writing: a line written there waits in
        // the pipe for the program's `read`, and writing never blocks the test, whether or not
        // the program has opened the gate yet.
        let gate = open(fixture.folder + "/gate", O_RDWR)
        try #require(gate >= 0, "cannot open the gate FIFO")
        defer { close(gate) }
        func release() { _ = "go\n".withCString { write(gate, $0, 3) } }
        try fixture.write("""
            app sh -c "echo started > ../started; read line < ../gate; cat"
            stdin file input.txt
            launch pipes
            exit 0
            """, at: "w/gated.flow")
        try fixture.write("one\n", at: "w/input.txt")
        // The program waits for the test, however slow the machine: no time limit that matters.
        let harness = try BackgroundHarness(["run", "w", "--watch", "--timeout", "60m"], in: fixture.folder)
        defer { harness.stop() }
        #expect(try await readLine(fromFIFO: fixture.folder + "/started") == "started")
        try fixture.write("two\n", at: "w/input.txt")
        release()
        let next = await harness.waitForOutput(anyOf: ["Changed:", "Watching"])
        #expect(next == "Changed:", "\(harness.output)")
        if next == "Changed:" {
            // The second run: its program starts, and ends when the test says.
            #expect(try await readLine(fromFIFO: fixture.folder + "/started") == "started")
            release()
            try await harness.waitForOutput("Watching")
        }
        harness.send(SIGINT)
        let output = try await harness.waitForExit()
        #expect(output.status == .exited(130))
        #expect(output.standardOutput.contains("Changed: \(fixture.folder)/w/input.txt\nRunning 1 flow on 1 worker"),
                "\(output.standardOutput)")
    }
}
