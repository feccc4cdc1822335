import Foundation
import HarnessSystem
import TestSupport
import Testing
import Harness
import HarnessFlows

/// What `harness run` leaves when it is cancelled (Ctrl-C, a CI's SIGTERM) or killed: the files
/// of what finished, the rest marked interrupted, and no process of the run (docs/RELIABILITY.md,
/// "Cancellation and death").
///
/// Nothing here waits for time: the flows' programs say they are ready through FIFOs the test
/// reads, the test reads the harness's own output as it comes, and a signal is sent only after
/// both.
@Suite(.serialized) struct RunCancellationTests {
    /// A finished flow, a terminal flow whose program ignores SIGHUP and SIGTERM, a `launch pipes`
    /// flow; SIGINT (SIGTERM) once the first finished and the others' programs run.
    @Test(arguments: [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")])
    func aSignalKeepsTheFinishedFlowAndEndsTheOthers(signal: Int32, name: String) async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let folder = fixture.folder
        try makeFIFOs(in: folder, "terminal.ready", "pipes.ready")
        try fixture.write("""
            app echo done
            launch pipes
            stdout contains "done"
            exit 0
            """, at: "flows/a-finished.flow")
        try fixture.write("""
            timeout 30m
            app sh -c "trap '' HUP TERM; echo $$$$ > \(folder)/terminal.pid; echo ready > \(folder)/terminal.ready; exec sleep 100000"
            launch
            expect "never shown"
            """, at: "flows/b-stubborn.flow")
        try fixture.write("""
            timeout 30m
            app sh -c "echo $$$$ > \(folder)/pipes.pid; echo ready > \(folder)/pipes.ready; exec sleep 100000"
            launch pipes
            exit 0
            """, at: "flows/c-pipes.flow")
        try FileManager.default.createDirectory(atPath: folder + "/sandboxes", withIntermediateDirectories: true)

        let harness = try BackgroundHarness(
            ["run", "flows", "--jobs", "3", "--junit", "junit.xml", "--artifacts", "report", "--history", "history"],
            in: folder, environment: ["TMPDIR": folder + "/sandboxes"])
        defer { harness.stop() }
        async let terminalReady = readLine(fromFIFO: folder + "/terminal.ready")
        async let pipesReady = readLine(fromFIFO: folder + "/pipes.ready")
        try await harness.waitForOutput("✓ flows/a-finished.flow")
        #expect(try await terminalReady == "ready")
        #expect(try await pipesReady == "ready")
        harness.send(signal)
        let output = try await harness.waitForExit()

        #expect(output.status == .exited(128 + signal), "\(output.standardOutput)\n\(output.standardError)")
        #expect(output.standardError.contains("harness run: \(name): ending the running programs"))
        #expect(output.standardOutput.contains("1 passed, 0 failed, 2 interrupted"))
        let junit = try String(contentsOfFile: folder + "/junit.xml", encoding: .utf8)
        let report = try JUnitReader.read(path: folder + "/junit.xml")
        let cases = Dictionary(uniqueKeysWithValues: report.suites.flatMap(\.cases).map { ($0.name, $0.result) })
        #expect(cases["a-finished"] == .passed)
        for interrupted in ["b-stubborn", "c-pipes"] {
            guard case .error(let detail) = cases[interrupted] else {
                Issue.record("\(interrupted): \(String(describing: cases[interrupted]))\n\(junit)")
                continue
            }
            #expect(detail.type == "interrupted")
            #expect(detail.message == "interrupted by \(name)")
        }
        let results = try String(contentsOfFile: folder + "/report/results.json", encoding: .utf8)
        #expect(results.contains("\"interrupted\""))
        #expect(FileManager.default.fileExists(atPath: folder + "/report/index.html"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/history").count == 1)
        for pidFile in ["terminal.pid", "pipes.pid"] {
            let pid = try #require(Int32(String(contentsOfFile: folder + "/" + pidFile, encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)))
            #expect(!Posix.exists(pid), "\(pidFile): process \(pid) is still running")
            if Posix.exists(pid) { _ = try? Posix.kill(pid, SIGKILL) }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/sandboxes").isEmpty)
    }

    /// A second SIGINT while the first one's teardown and reports are under way ends the run at
    /// once. The files step is held for ever (the snapshot ledger, which the run appends to once
    /// its flows ended, is made a FIFO nobody reads), so only the second signal can end the
    /// process.
    @Test func aSecondSignalEndsTheRunAtOnce() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let folder = fixture.folder
        try makeFIFOs(in: folder, "ready")
        try fixture.write("""
            timeout 30m
            app sh -c "trap '' HUP TERM; echo $$$$ > \(folder)/program.pid; echo ready > \(folder)/ready; exec sleep 100000"
            launch pipes
            exit 0
            """, at: "flows/stubborn.flow")
        let harness = try BackgroundHarness(
            ["run", "flows", "--junit", "junit.xml", "--artifacts", "report"], in: folder)
        defer { harness.stop() }
        #expect(try await readLine(fromFIFO: folder + "/ready") == "ready")
        // The run started its ledger afresh; from now on writing to it blocks.
        try FileManager.default.removeItem(atPath: folder + "/report/snapshot-ledger.jsonl")
        try makeFIFOs(in: folder + "/report", "snapshot-ledger.jsonl")
        harness.send(SIGINT)
        try await harness.waitForOutput("harness run: SIGINT: ending the running programs")
        harness.send(SIGINT)
        let output = try await harness.waitForExit()

        #expect(output.status == .exited(130))
        #expect(output.standardError.contains("harness run: SIGINT again: stopping at once"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/junit.xml"))
        let pid = try #require(Int32(String(contentsOfFile: folder + "/program.pid", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(Posix.waitUntilExited([pid], timeout: mustSucceedTimeout), "the program outlived the harness")
        if Posix.exists(pid) { _ = try? Posix.kill(pid, SIGKILL) }
    }

    /// A program the harness started dies with it even when the harness is killed by SIGKILL
    /// (its parent-death signal), in a terminal and with pipes. It ignores SIGHUP, which the
    /// terminal's hang-up would send it.
    @Test(arguments: ["launch", "launch pipes"])
    func programsDieWhenTheHarnessIsKilled(launch: String) async throws {
        #if os(Linux)
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let folder = fixture.folder
        try makeFIFOs(in: folder, "ready")
        try fixture.write("""
            timeout 30m
            app sh -c "trap '' HUP TERM; echo $$$$ > \(folder)/program.pid; echo ready > \(folder)/ready; exec sleep 100000"
            \(launch)
            exit 0
            """, at: "flows/running.flow")
        let harness = try BackgroundHarness(["run", "flows"], in: folder)
        defer { harness.stop() }
        #expect(try await readLine(fromFIFO: folder + "/ready") == "ready")
        let pid = try #require(Int32(String(contentsOfFile: folder + "/program.pid", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        harness.send(SIGKILL)
        #expect(try await harness.waitForExit().status == .signaled(SIGKILL))
        #expect(Posix.waitUntilExited([pid], timeout: mustSucceedTimeout), "the program outlived the harness")
        if Posix.exists(pid) { _ = try? Posix.kill(pid, SIGKILL) }
        #endif
    }

    /// A daemon a flow's program starts (a new session, so outside the program's process group)
    /// is ended when that flow ends: the next flow sees it gone.
    @Test func aDaemonIsEndedWhenItsFlowEnds() async throws {
        #if os(Linux)
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let folder = fixture.folder
        try makeFIFOs(in: folder, "daemon.up")
        try fixture.write("""
            app sh -c "setsid sh -c 'echo $$$$ > \(folder)/daemon.pid; echo up > \(folder)/daemon.up; exec sleep 100000' </dev/null >/dev/null 2>&1 & read up < \(folder)/daemon.up; echo started"
            launch pipes
            stdout contains "started"
            exit 0
            """, at: "flows/1-daemon.flow")
        try fixture.write("""
            app sh -c "if kill -0 $$(cat \(folder)/daemon.pid) 2>/dev/null; then echo alive; else echo gone; fi"
            launch pipes
            stdout contains "gone"
            exit 0
            """, at: "flows/2-check.flow")
        let output = try await runHarness(["run", "flows", "--jobs", "1"], in: folder)
        #expect(output.status == 0, "\(output.stdout)\n\(output.stderr)")
        let pid = try #require(Int32(String(contentsOfFile: folder + "/daemon.pid", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(!Posix.exists(pid))
        if Posix.exists(pid) { _ = try? Posix.kill(pid, SIGKILL) }
        #endif
    }
}

extension RunCancellationTests {
    /// `harness swift-test` interrupted while `swift test` runs (a stand-in that ignores SIGHUP
    /// and SIGTERM): the test the event stream saw end passed, the running one and the one never
    /// started are interrupted, and the run exits 130.
    @Test func swiftTestKeepsTheFinishedTestsAndEndsSwift() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let folder = fixture.folder
        try makeFIFOs(in: folder, "ready")
        try fixture.write("// swift-tools-version:6.0\n", at: "package/Package.swift")
        try fixture.write(#"""
            #!/bin/sh
            [ "$1" = test ] || exit 64
            shift
            if [ "$1" = list ]; then
                printf 'FakeTests.Suite/finished()\nFakeTests.Suite/running()\nFakeTests.Suite/waiting()\n'
                exit 0
            fi
            events=""
            while [ $# -gt 0 ]; do
                case "$1" in --event-stream-output-path) events=$2; shift ;; esac
                shift
            done
            trap '' HUP TERM
            for event in "testStarted finished()/Fake.swift:1:2" "testEnded finished()/Fake.swift:1:2" "testStarted running()/Fake.swift:2:2"; do
                set -- $event
                printf '{"kind":"event","payload":{"kind":"%s","testID":"FakeTests.Suite/%s"}}\n' "$1" "$2" >> "$events"
            done
            echo $$ > "FOLDER/swift.pid"
            echo ready > "FOLDER/ready"
            exec sleep 100000
            """#.replacingOccurrences(of: "FOLDER", with: folder), at: "swift", executable: true)
        let harness = try BackgroundHarness(
            ["swift-test", "--swift", folder + "/swift", "--package-path", "package", "--junit", "junit.xml"], in: folder)
        defer { harness.stop() }
        #expect(try await readLine(fromFIFO: folder + "/ready") == "ready")
        harness.send(SIGINT)
        let output = try await harness.waitForExit()

        #expect(output.status == .exited(130), "\(output.standardOutput)\n\(output.standardError)")
        let report = try JUnitReader.read(path: folder + "/junit.xml")
        let cases = Dictionary(uniqueKeysWithValues: report.suites.flatMap(\.cases).map { ($0.name, $0.result) })
        #expect(cases["finished()"] == .passed)
        for name in ["running()", "waiting()"] {
            guard case .error(let detail) = cases[name] else {
                Issue.record("\(name): \(String(describing: cases[name]))")
                continue
            }
            #expect(detail.type == "interrupted")
            #expect(detail.message.hasPrefix("interrupted by SIGINT"))
        }
        let pid = try #require(Int32(String(contentsOfFile: folder + "/swift.pid", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(!Posix.exists(pid), "swift test is still running")
        if Posix.exists(pid) { _ = try? Posix.kill(pid, SIGKILL) }
    }
}

// MARK: - Helpers

/// Makes a FIFO for each name in `folder`.
func makeFIFOs(in folder: String, _ names: String...) throws {
    for name in names {
        guard mkfifo(folder + "/" + name, 0o600) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: folder + "/" + name])
        }
    }
}

/// The first line a program writes into the FIFO at `path` (read by `sh`, off the pool).
func readLine(fromFIFO path: String) async throws -> String {
    let output = try await runProgram("/bin/sh", ["-c", #"read line < "$1" && printf '%s' "$line""#, "sh", path])
    return output.stdout
}

/// `harness ARGUMENTS` running in the background: the test reads its output as it comes,
/// signals it and waits for its end.
final class BackgroundHarness: Sendable {
    private struct Seen {
        var text = ""
        var ended = false
        var waiters: [([String], CheckedContinuation<Void, Never>)] = []
    }

    private let session: PipedSession
    private let seen: Locked<Seen>

    init(_ arguments: [String], in directory: String, environment extra: [String: String] = [:]) throws {
        var environment = ProcessInfo.processInfo.environment
        environment["HARNESS_RECORD"] = "never"
        environment["HARNESS_PRODUCTS_DIR"] = BuildProducts.directory.path
        for (key, value) in extra { environment[key] = value }
        let seen = Locked(Seen())
        self.seen = seen
        var configuration = PipedSession.Configuration(
            executable: try BuildProducts.executable(named: "harness").path, arguments: arguments,
            environment: environment, workingDirectory: directory)
        configuration.onOutput = { _, bytes in
            let ready = seen.withLock { seen -> [CheckedContinuation<Void, Never>] in
                seen.text += String(decoding: bytes, as: UTF8.self)
                let text = seen.text
                let found = { (waiter: ([String], CheckedContinuation<Void, Never>)) in waiter.0.contains { text.contains($0) } }
                let ready = seen.waiters.filter(found).map(\.1)
                seen.waiters.removeAll(where: found)
                return ready
            }
            for continuation in ready { continuation.resume() }
        }
        session = try PipedSession.launch(configuration)
        session.onExit { _ in
            let waiting = seen.withLock { seen -> [CheckedContinuation<Void, Never>] in
                seen.ended = true
                defer { seen.waiters = [] }
                return seen.waiters.map(\.1)
            }
            for continuation in waiting { continuation.resume() }
        }
    }

    /// Waits until the harness printed `text` (on either stream); fails if it ended first.
    func waitForOutput(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        if await waitForOutput(anyOf: [text]) == nil {
            Issue.record("the harness ended without printing \(text.debugDescription):\n\(output)", sourceLocation: sourceLocation)
        }
    }

    /// Waits until the harness printed one of `texts` (on either stream) and returns the one
    /// printed first; nil if it ended first.
    func waitForOutput(anyOf texts: [String]) async -> String? {
        await withCheckedContinuation { continuation in
            let now = seen.withLock { seen -> Bool in
                if texts.contains(where: seen.text.contains) || seen.ended { return true }
                seen.waiters.append((texts, continuation))
                return false
            }
            if now { continuation.resume() }
        }
        let all = output
        return texts.compactMap { text in all.range(of: text).map { (text, $0.lowerBound) } }.min { $0.1 < $1.1 }?.0
    }

    /// What the harness printed so far (both streams).
    var output: String { seen.withLock { $0.text } }

    func send(_ signal: Int32) {
        _ = try? Posix.kill(session.pid, signal)
    }

    func waitForExit() async throws -> PipedSession.Output {
        try await session.waitForExit(timeout: mustSucceedTimeout)
    }

    /// Ends the harness if it still runs.
    func stop() {
        _ = session.terminate()
    }
}
