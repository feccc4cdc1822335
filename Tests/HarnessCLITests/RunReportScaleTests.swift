import Foundation
import TestSupport
import Testing
import Harness
import HarnessCore
import TerminalEmulator
@testable import HarnessFlows
@testable import HarnessSteps

/// A report of 500 flows, 50 of them failing with full timelines and replays: its size, the
/// time to make it, and its load time in headless Chromium, printed (the figures in
/// docs/NIGHTLY.md come from this output). A measurement, not a check of speed: it runs only
/// when asked (`HARNESS_REPORT_SCALE=1`), and asserts only what does not depend on the machine.
@Suite struct RunReportScaleTests {
    /// `flows` results, the first `failing` failed with a trace of `steps` steps each.
    static func syntheticRun(flows: Int = 500, failing: Int = 50, steps: Int = 12) -> ([FlowResult], [String: [Int: FlowTrace]]) {
        var results: [FlowResult] = []
        var traces: [String: [Int: FlowTrace]] = [:]
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for index in 0..<flows {
            let path = String(format: "suite/area-%02d/flow-%03d.flow", index % 20, index)
            let file = FlowFile(path: "/work/" + path, relativePath: path)
            let seconds = 0.2 + Double((index * 7919) % 1000) / 100
            guard index < failing else {
                results.append(FlowResult(flow: file, attempts: [FlowAttempt(number: 1, duration: .milliseconds(Int64(seconds * 1000)), outcome: .passed)]))
                continue
            }
            // The app draws a header, then one line per step (each flow its own data), then an error.
            let terminal = Terminal(cols: 80, rows: 24)
            var recording = TerminalRecording(size: TerminalSize(cols: 80, rows: 24), startDate: start.addingTimeInterval(0.05))
            var traceSteps: [FlowTrace.Step] = []
            var time = 0.0
            func output(_ text: String) {
                let bytes = Array(text.utf8)
                terminal.feed(bytes)
                recording.events.append(.init(time: time, kind: .output, bytes: bytes))
            }
            output("\u{1B}[2J\u{1B}[H\u{1B}[1;36mTodos\u{1B}[0m — flow \(index)\r\n\r\n")
            for step in 1...steps {
                time += 0.04 + Double(step % 3) * 0.05
                output("\u{1B}[32m•\u{1B}[0m item \(index)-\(step): \(String(repeating: "x", count: (index + step) % 40))\r\n")
                let failed = step == steps
                if failed { output("\u{1B}[41;97m Oops: the server answered 500 \u{1B}[0m\r\n") }
                traceSteps.append(FlowTrace.Step(text: failed ? "expect \"Saved\"" : "press enter", line: step + 4, start: time, duration: 0.03,
                                                 result: failed ? .failed : .passed, problem: failed ? "the screen never showed it within 5s" : nil,
                                                 screen: terminal.snapshot()))
            }
            let trace = FlowTrace(
                path: path, attempt: 1, startDate: start, duration: time + 0.1, steps: traceSteps,
                requests: [.init(time: 0.2, method: "GET", target: "/todos", status: "500", delay: 0.1)],
                messages: [.init(time: 0.1, kind: .event, name: "state", value: "\"loading\""),
                           .init(time: 0.3, kind: .event, name: "state", value: "\"error\"")],
                recording: recording)
            traces[path] = [1: trace]
            let failure = FlowFailure(message: "expect \"Saved\": the screen never showed it within 5s",
                                      position: SourcePosition(file: path, line: steps + 4, column: 1),
                                      artifacts: FlowArtifacts(cast: path + ".cast"))
            results.append(FlowResult(flow: file, attempts: [FlowAttempt(number: 1, duration: .milliseconds(Int64(seconds * 1000)),
                                                                         outcome: .failed(failure))]))
        }
        return (results, traces)
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["HARNESS_REPORT_SCALE"] == "1", "a measurement: HARNESS_REPORT_SCALE=1 runs it"),
          .enabled(if: HeadlessChromium.isInstalled, "chromium is not installed (.ci/run installs it: apt-get install -y chromium)"))
    func fiveHundredFlowsMeasured() async throws {
        let (results, traces) = Self.syntheticRun()
        let clock = ContinuousClock()
        let buildStart = clock.now
        var report = RunReport(results: results, traces: traces, startedAt: Date(), wallSeconds: 600)
        // 20 earlier nights; a few flows failed now and then (flaky over time).
        let history = (0..<20).map { run in
            var night = FlowHistory.Run(results: results, date: Date(timeIntervalSince1970: 1_800_000_000 - Double(20 - run) * 86_400))
            for index in night.flows.indices {
                night.flows[index].seconds *= 0.8 + Double((index + run) % 5) / 10
                night.flows[index].status = (index * 3 + run) % 41 == 0 ? .failed : .passed
            }
            return night
        }
        let drawn = clock.now - buildStart
        report.attachHistory(history)
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let folder = fixture.folder
        let page = try RunReportWriter.write(report, toFolder: folder)
        let buildTime = clock.now - buildStart
        if let keep = ProcessInfo.processInfo.environment["HARNESS_KEEP_SCALE_REPORT"] {
            // To look at the page: HARNESS_KEEP_SCALE_REPORT=/tmp/scale swift test --filter RunReportScaleTests
            try? FileManager.default.removeItem(atPath: keep)
            try FileManager.default.copyItem(atPath: folder, toPath: keep)
        }
        let pageBytes = try FileManager.default.attributesOfItem(atPath: page)[.size] as? Int ?? 0
        let resultsBytes = try FileManager.default.attributesOfItem(atPath: folder + "/results.json")[.size] as? Int ?? 0

        // The browser's own start, on an empty page, then the report.
        try Data("<!DOCTYPE html><title>empty</title><p>empty".utf8).write(to: URL(fileURLWithPath: folder + "/empty.html"))
        let emptyStart = clock.now
        _ = try await HeadlessChromium.dumpDOM(of: folder + "/empty.html")
        let emptyTime = clock.now - emptyStart
        let loadStart = clock.now
        let dom = try await HeadlessChromium.dumpDOM(of: page)
        let loadTime = clock.now - loadStart
        let loadMs = dom.firstMatch(of: /data-load-ms="(\d+)"/).map { Int($0.1)! } ?? -1

        let replayFrames = report.flows.flatMap { $0.attempts.compactMap { $0.trace?.replay?.frames.count } }.reduce(0, +)
        let stepFrames = report.flows.flatMap { $0.attempts.compactMap { $0.trace?.steps.compactMap(\.frame).count } }.reduce(0, +)
        print("""
            Report of \(report.flows.count) flows (\(traces.count) failing with traces, 20 runs of history):
              frames: \(report.frames.count) unique pictures for \(stepFrames) step screens and \(replayFrames) replay frames
              index.html: \(pageBytes / 1024) KB, results.json: \(resultsBytes / 1024) KB, made in \(buildTime) (drawing: \(drawn))
              chromium --dump-dom: \(loadTime) (an empty page: \(emptyTime)); the script finished \(loadMs) ms after navigation
            """)
        #expect(dom.contains("data-ready=\"1\""))
        #expect(pageBytes < 10_000_000)
        #expect(loadMs >= 0, "the page's script did not record when it finished")
    }
}
