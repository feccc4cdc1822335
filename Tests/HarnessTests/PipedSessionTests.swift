import Foundation
import TestSupport
import Testing
import Harness
@testable import HarnessCore
import HarnessSystem

/// Programs run with pipes: input, outputs kept apart, exits, timeouts, teardown, and the hard
/// cases (a death by signal right after printing, megabytes on both outputs, input nobody reads).
@Suite(.timeLimit(.minutes(10))) struct PipedSessionTests {
    @Test func sortReadsItsInputAndWritesSortedLines() async throws {
        let output = try await PipedSession.withSession(piped("sort", input: .text("pear\napple\nfig\n"))) { session in
            try await session.waitForExit()
        }
        #expect(output.status == .exited(0))
        #expect(output.standardOutput == "apple\nfig\npear\n")
        #expect(output.standardOutputData == Data("apple\nfig\npear\n".utf8))
        #expect(output.standardErrorData.isEmpty)
    }

    @Test func outputAndErrorAreKeptApartAndTheExitCodeIsData() async throws {
        let session = try PipedSession.launch(piped("sh", ["-c", "echo out; echo err >&2; echo more; exit 3"]))
        defer { session.terminate() }
        let output = try await session.waitForExit()
        #expect(output.status == .exited(3))
        #expect(output.shellStatus == 3)
        #expect(output.standardOutput == "out\nmore\n")
        #expect(output.standardError == "err\n")
        #expect(session.exitStatus == .exited(3))
        #expect(try await session.waitForExit() == output, "a second wait gets the same result")
    }

    /// `onExit` runs once, on the thread that completes the result and before any wait returns
    /// (so it never waits for the cooperative pool): registered before the exit it gets the
    /// whole output; registered after it, at once; a program ended by `terminate` reports that
    /// end too.
    @Test func onExitRunsOnceOnTheSessionsThreadBeforeTheWaitReturns() async throws {
        let calls = Locked<[PipedSession.Output]>([])
        let record: @Sendable (PipedSession.Output) -> Void = { output in calls.withLock { $0.append(output) } }
        let session = try PipedSession.launch(piped("sh", ["-c", "read line; echo \"got $line\"; exit 4"], input: .text("x\n")))
        defer { session.terminate() }
        session.onExit(record)
        let output = try await session.waitForExit()
        #expect(output.status == .exited(4) && output.standardOutput == "got x\n")
        #expect(calls.withLock { $0 } == [output], "the handler ran before the wait returned")
        session.onExit(record)
        await EventLoop.shared.submit {}  // a job after the handler's
        #expect(calls.withLock { $0 } == [output, output], "registered after the end, it runs on the loop next")
        session.terminate()
        #expect(calls.withLock { $0.count } == 2, "terminate after the end calls nobody again")

        let hanging = try PipedSession.launch(piped("sleep", ["1000"]))
        let ended = Locked<[HarnessCore.ExitStatus]>([])
        hanging.onExit { output in ended.withLock { $0.append(output.status) } }
        #expect(ended.withLock { $0 }.isEmpty)
        let status = hanging.terminate()
        #expect(status == .signaled(SIGTERM) || status == .signaled(SIGKILL))
        // The reaper may still be running the handler when terminate returns; a wait returns
        // only after it.
        #expect(try await hanging.waitForExit().status == status)
        #expect(ended.withLock { $0 } == [status])
    }

    @Test func inputFromAFileAndNoInputAtAll() async throws {
        let folder = try TemporaryDirectory(prefix: "piped").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/lines.txt"
        try Data("one\ntwo\nthree\n".utf8).write(to: URL(fileURLWithPath: file))
        let counted = try await PipedSession.withSession(piped("wc", ["-l"], input: .file(file))) { try await $0.waitForExit() }
        #expect(counted.standardOutput.trimmingCharacters(in: .whitespaces) == "3\n")
        let empty = try await PipedSession.withSession(piped("cat")) { try await $0.waitForExit() }
        #expect(empty.status == .exited(0))
        #expect(empty.standardOutputData.isEmpty)
    }

    @Test func argumentsEnvironmentAndWorkingDirectoryReachTheProgram() async throws {
        let folder = try TemporaryDirectory(prefix: "piped").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var configuration = piped("sh", ["-c", #"printf '%s|%s|%s' "$1" "$GREETING" "$(pwd -P)""#, "sh", "two words"])
        configuration.environment["GREETING"] = "hello"
        configuration.workingDirectory = folder
        let output = try await PipedSession.withSession(configuration) { try await $0.waitForExit() }
        let real = try #require(Posix.currentDirectory().map { _ in URL(fileURLWithPath: folder).resolvingSymlinksInPath().path })
        #expect(output.standardOutput == "two words|hello|\(real)")
    }

    /// The bytes written just before a death by signal are in the pipe: they must all be read.
    @Test func outputWrittenJustBeforeADeathBySignalIsCapturedWhole() async throws {
        let lines = (1...2000).map { "\($0)\n" }.joined()
        for attempt in 1...40 {
            let output = try await PipedSession.withSession(
                piped("sh", ["-c", "seq 1 2000; echo last words >&2; kill -KILL $$"])
            ) { try await $0.waitForExit() }
            #expect(output.status == .signaled(SIGKILL), "attempt \(attempt)")
            #expect(output.standardOutput == lines, "attempt \(attempt): \(output.standardOutputData.count) bytes")
            #expect(output.standardError == "last words\n", "attempt \(attempt)")
        }
    }

    @Test func megabytesOnBothOutputsAtOnceDoNotDeadlock() async throws {
        let size = 4_000_000
        let script = "head -c \(size) /dev/zero | tr '\\0' a & head -c \(size) /dev/zero | tr '\\0' b >&2; wait"
        let output = try await PipedSession.withSession(piped("sh", ["-c", script])) { try await $0.waitForExit() }
        #expect(output.status == .exited(0))
        #expect(output.standardOutputData.count == size)
        #expect(output.standardErrorData.count == size)
        #expect(output.standardOutputData.allSatisfy { $0 == UInt8(ascii: "a") })
        #expect(output.standardErrorData.allSatisfy { $0 == UInt8(ascii: "b") })
    }

    @Test func megabytesOfInputGoThroughCatUnchanged() async throws {
        let input = Data((0..<6_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) })
        let output = try await PipedSession.withSession(piped("cat", input: .data(input))) { try await $0.waitForExit() }
        #expect(output.status == .exited(0))
        #expect(output.standardOutputData == input)
    }

    /// The program writes megabytes before it reads any of its megabytes of input: neither side
    /// may wait for the other (input written only as far as the pipe takes it, output read meanwhile).
    @Test func megabytesOfOutputBeforeTheInputIsReadDoNotDeadlock() async throws {
        let input = Data(repeating: UInt8(ascii: "i"), count: 5_000_000)
        // A first small read frees part of the input pipe, then output only, then the rest.
        let script = "head -c 20000 >/dev/null; head -c 3000000 /dev/zero | tr '\\0' o; wc -c"
        let output = try await PipedSession.withSession(piped("sh", ["-c", script], input: .data(input))) { try await $0.waitForExit() }
        #expect(output.status == .exited(0))
        #expect(output.standardOutputData.prefix(3_000_000).allSatisfy { $0 == UInt8(ascii: "o") })
        #expect(output.standardOutput.dropFirst(3_000_000).trimmingCharacters(in: .whitespaces) == "4980000\n")
    }

    /// Far more input than a pipe holds, to programs that never read it: one exits at once (the
    /// writer gets EPIPE, which must neither raise SIGPIPE in the test process nor fail), one
    /// keeps running and is ended by terminate.
    @Test func inputBiggerThanThePipeToAProgramThatNeverReadsDoesNotHang() async throws {
        let input = Data(repeating: UInt8(ascii: "x"), count: 8_000_000)
        let quick = try await PipedSession.withSession(piped("sh", ["-c", "echo done"], input: .data(input))) { try await $0.waitForExit() }
        #expect(quick.status == .exited(0))
        #expect(quick.standardOutput == "done\n")

        let session = try PipedSession.launch(piped("sleep", ["1000"], input: .data(input)))
        let error = await caughtError { try await session.waitForExit(timeout: .milliseconds(100)) }
        guard case .timeout? = error as? PipedSessionError else {
            Issue.record("expected a timeout, got \(String(describing: error))")
            return
        }
        #expect(session.terminate() == .signaled(SIGTERM))
        #expect(session.core.isFullyReleased)
    }

    @Test func aHangingProgramTimesOutWithTheTailsOfBothOutputsAndIsKilledWithItsGroup() async throws {
        let watcher = OutputWatcher()
        var configuration = piped("sh", ["-c", "echo partial; echo warning >&2; sleep 1000 & exec sleep 1000"])
        configuration.onOutput = watcher.handler
        let session = try PipedSession.launch(configuration)
        try await watcher.wait(for: "partial\n", in: .standardOutput)
        try await watcher.wait(for: "warning\n", in: .standardError)
        let error = await caughtError { try await session.waitForExit(timeout: .milliseconds(200)) }
        let timeout = try #require(error as? PipedSessionError)
        // The description begins with the wait's place (`HarnessTests/PipedSessionTests.swift:155: `).
        #expect(timeout.description == "\(try #require(timeout.failureSite).fileID):\(#line - 3): " + timeout.failureMessage)
        #expect(timeout.failureMessage == """
            Timed out after 200 ms waiting for \(session.executablePath) to exit (it still runs).
            stdout (8 bytes): partial\\n
            stderr (8 bytes): warning\\n
            """)
        let pid = session.pid
        #expect(Posix.livingMembers(ofProcessGroup: pid).count >= 2)
        #expect(session.terminate() == .signaled(SIGTERM))
        #expect(Posix.livingMembers(ofProcessGroup: pid).isEmpty, "a process of the group still runs")
        #expect(session.terminate() == .signaled(SIGTERM), "terminate is idempotent")
        var raw: Int32 = 0
        #expect(waitpid(pid, &raw, WNOHANG) == -1 && errno == ECHILD, "the program was reaped")
        #expect(session.core.isFullyReleased)
        #expect(try await session.waitForExit().status == .signaled(SIGTERM), "a wait after terminate gets the end")
    }

    @Test func terminateKillsAProgramThatIgnoresTerm() async throws {
        let watcher = OutputWatcher()
        var configuration = piped("sh", ["-c", "trap '' TERM; echo ready; exec sleep 1000"])
        configuration.onOutput = watcher.handler
        let session = try PipedSession.launch(configuration)
        try await watcher.wait(for: "ready", in: .standardOutput)
        let pid = session.pid
        #expect(session.terminate(grace: .milliseconds(100)) == .signaled(SIGKILL))
        #expect(!Posix.exists(-pid), "the process group still exists")
    }

    /// A process the program started in the background keeps the output pipe open after the
    /// program exited: the wait must end at its time limit and say so, not hang.
    @Test func aBackgroundProcessHoldingTheOutputDoesNotHangTheWait() async throws {
        let watcher = OutputWatcher()
        var configuration = piped("sh", ["-c", "echo started; sleep 1000 &"])
        configuration.onOutput = watcher.handler
        let session = try PipedSession.launch(configuration)
        defer { session.terminate() }
        try await watcher.wait(for: "started\n", in: .standardOutput)
        let error = await caughtError { try await session.waitForExit(timeout: .milliseconds(300)) }
        let stillOpen = try #require(error as? PipedSessionError)
        guard case .outputStillOpen(_, .exited(0), _, _, _, _) = stillOpen else {
            Issue.record("expected outputStillOpen after an exit with code 0, got \(stillOpen)")
            return
        }
        #expect(stillOpen.failureMessage.hasPrefix(
            "\(session.executablePath) exited with code 0, but its output was still open after 300 ms"))
        #expect(stillOpen.description.hasSuffix("stdout (8 bytes): started\\n\nstderr (0 bytes)"))
        let pid = session.pid
        #expect(session.terminate() == .exited(0))
        #expect(Posix.livingMembers(ofProcessGroup: pid).isEmpty, "the background sleep still runs")
        #expect(session.exitStatus == .exited(0))
        #expect(session.standardOutputSoFar == Data("started\n".utf8))
    }

    @Test func aWaitingTaskCanBeCancelled() async throws {
        let session = try PipedSession.launch(piped("sleep", ["1000"]))
        defer { session.terminate() }
        let waiting = Task { try await session.waitForExit(timeout: .seconds(600)) }
        waiting.cancel()
        let error = await caughtError { try await waiting.value }
        #expect(error is CancellationError)
    }

    @Test func missingOrUnusableExecutablesAndInputsFailClearly() async throws {
        let missing = await caughtError { try PipedSession.launch(piped("/nonexistent/program")) }
        #expect((missing as? PipedSessionError)?.description
            == "Executable not found: /nonexistent/program (no such file, or not found in PATH)")
        let unknown = await caughtError { try PipedSession.launch(piped("no-such-program-for-harness-tests")) }
        guard case .executableNotFound("no-such-program-for-harness-tests")? = unknown as? PipedSessionError else {
            Issue.record("got \(String(describing: unknown))")
            return
        }
        let directory = await caughtError { try PipedSession.launch(piped("/tmp")) }
        #expect((directory as? PipedSessionError)?.description.hasPrefix("Not executable: /tmp") == true)

        let folder = try TemporaryDirectory(prefix: "piped").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let garbage = folder + "/garbage"
        _ = FileManager.default.createFile(atPath: garbage, contents: Data([1, 2, 3]), attributes: [.posixPermissions: 0o755])
        let exec = await caughtError { try PipedSession.launch(piped(garbage)) }
        #expect((exec as? PipedSessionError)?.description.hasPrefix("Could not launch \(garbage): execve (in the child) failed") == true,
                "\(String(describing: exec))")
        let input = await caughtError { try PipedSession.launch(piped("cat", input: .file(folder + "/absent.txt"))) }
        #expect((input as? PipedSessionError)?.description.hasPrefix("Cannot read the standard input file \(folder)/absent.txt: open") == true,
                "\(String(describing: input))")
        let cwd = await caughtError {
            var configuration = piped("cat")
            configuration.workingDirectory = folder + "/absent"
            return try PipedSession.launch(configuration)
        }
        #expect((cwd as? PipedSessionError)?.description.contains("working directory \(folder)/absent does not exist") == true)
        let empty = await caughtError { try PipedSession.launch(piped("")) }
        #expect((empty as? PipedSessionError)?.description == "Invalid piped session configuration: the executable name is empty")
    }

    @Test func withSessionTerminatesWhenTheBodyThrowsAndDroppingASessionEndsIt() async throws {
        struct Expected: Error {}
        let pid = PIDBox()
        let error = await caughtError {
            try await PipedSession.withSession(piped("sleep", ["1000"])) { session in
                pid.value = session.pid
                throw Expected()
            }
        }
        #expect(error is Expected)
        #expect(pid.value > 0)
        #expect(!Posix.exists(-pid.value))

        var dropped: Int32 = 0
        do {
            let session = try PipedSession.launch(piped("sleep", ["1000"]))
            dropped = session.pid
        }
        #expect(dropped > 0)
        #expect(!Posix.exists(-dropped))
    }

    @Test func pipedProgramRunIsAWaitWithoutLimit() async throws {
        let result = try await PipedProgram.run("/bin/sh", arguments: ["-c", "cat; echo E >&2; exit 4"], input: Data("in".utf8))
        #expect(result.status == .exited(4))
        #expect(result.standardOutput == "in")
        #expect(result.standardError == "E\n")
    }
}

/// Sessions ended every way (exit, signal, timeout then terminate, a throwing body, release)
/// and launches that fail leave no descriptor and no process behind.
///
/// Other suites open descriptors in parallel, so the sessions' pipes are recognised by their
/// inode (`pipe:[N]`, shared by both ends): any descriptor still open on one of them is a leak.
/// Failed launches return no session to look at, so there the count of `/proc/self/fd` is
/// compared, with a margin for the other suites far below what one leak per launch would add.
@Suite(.serialized, .timeLimit(.minutes(10))) struct PipedSessionLeakTests {
    @Test func sessionsEndedEveryWayAndFailedLaunchesLeaveNothingBehind() async throws {
        struct Expected: Error {}
        var pipes: Set<String> = []
        var pids: [Int32] = []
        func remember(_ session: PipedSession) {
            let core = session.core
            for fd in [core.outputFD, core.errorFD, core.inputFD] where fd >= 0 {
                if let target = Posix.descriptorTarget(fd), target.hasPrefix("pipe:") { pipes.insert(target) }
            }
            pids.append(session.pid)
        }
        let input = Data(repeating: UInt8(ascii: "z"), count: 300_000)
        for index in 0..<40 {
            switch index % 5 {
            case 0:
                let session = try PipedSession.launch(piped("sort", input: .data(input)))
                remember(session)
                #expect(try await session.waitForExit().standardOutputData.count == input.count + 1)  // sort ends the line
                session.terminate()
                #expect(session.core.isFullyReleased)
            case 1:
                let session = try PipedSession.launch(piped("sleep", ["1000"], input: .data(input)))
                remember(session)
                _ = await caughtError { try await session.waitForExit(timeout: .milliseconds(50)) }
                session.terminate()
                #expect(session.core.isFullyReleased)
            case 2:
                _ = await caughtError {
                    try await PipedSession.withSession(piped("sh", ["-c", "sleep 1000 & exec sleep 1000"])) { session in
                        remember(session)
                        throw Expected()
                    }
                }
            case 3:
                let session = try PipedSession.launch(piped("sh", ["-c", "echo bye; kill -TERM $$"]))
                remember(session)
                let status = try await session.waitForExit().status  // shown when the check fails
                #expect(status == .signaled(SIGTERM))
            default:
                do {
                    let session = try PipedSession.launch(piped("sh", ["-c", "echo x >&2; exec cat"], input: .data(input)))
                    remember(session)
                }
            }
        }

        let folder = try TemporaryDirectory(prefix: "piped").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let garbage = folder + "/garbage"
        _ = FileManager.default.createFile(atPath: garbage, contents: Data([1, 2, 3]), attributes: [.posixPermissions: 0o755])
        let before = Posix.openDescriptors().count
        for index in 0..<100 {
            let configuration = index.isMultiple(of: 2)
                ? piped(garbage, input: .data(input)) : piped("cat", input: .file(folder + "/absent"))
            #expect(throws: PipedSessionError.self) { try PipedSession.launch(configuration) }
        }
        let grown = Posix.openDescriptors().count - before
        #expect(grown < 50, "\(grown) more descriptors after 100 failed launches")

        let leaked = Posix.openDescriptors().compactMap { fd -> String? in
            guard let target = Posix.descriptorTarget(fd), pipes.contains(target) else { return nil }
            return "\(fd) -> \(target)"
        }
        #expect(pipes.count >= 40 * 2, "every session's output and error pipes were seen")
        #expect(leaked.isEmpty, "leaked descriptors: \(leaked)")
        for pid in pids {
            var status: Int32 = 0
            #expect(waitpid(pid, &status, WNOHANG) == -1, "process \(pid) was not reaped")
            #expect(Posix.livingMembers(ofProcessGroup: pid).isEmpty, "group \(pid) still runs")
        }
    }
}

// MARK: - Support

/// `executable` with pipes, the test environment, and `input`.
func piped(_ executable: String, _ arguments: [String] = [], input: PipedSession.StandardInput = .empty) -> PipedSession.Configuration {
    PipedSession.Configuration(
        executable: executable, arguments: arguments, environment: testEnvironment, standardInput: input,
        defaultTimeout: .seconds(60))
}

/// Collects a piped session's output as the session reads it (``PipedSession/Configuration/onOutput``),
/// so that a test can await a piece of it instead of sleeping.
final class OutputWatcher: Sendable {
    /// What a wait that timed out throws: what it looked for and what the stream showed.
    struct Timeout: Error, CustomStringConvertible {
        let description: String
    }

    private struct Waiter {
        let id: Int
        let stream: PipedSession.Stream
        let bytes: [UInt8]
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var received: [PipedSession.Stream: [UInt8]] = [:]
        var waiters: [Waiter] = []
        var nextID = 0
    }

    private let state = Locked(State())

    /// The handler to put in the configuration.
    var handler: @Sendable (PipedSession.Stream, [UInt8]) -> Void {
        { [self] stream, bytes in append(bytes, to: stream) }
    }

    private func append(_ bytes: [UInt8], to stream: PipedSession.Stream) {
        let ready = state.withLock { state in
            state.received[stream, default: []] += bytes
            let all = state.received[stream]!
            var ready: [CheckedContinuation<Void, any Error>] = []
            state.waiters.removeAll { waiter in
                guard waiter.stream == stream, Self.contains(all, waiter.bytes) else { return false }
                ready.append(waiter.continuation)
                return true
            }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    /// Returns once `stream` has shown `text`; throws ``Timeout`` (saying what the stream
    /// showed) when it has not after `timeout` (a timer of the event loop), so a handler that
    /// is never called fails the test instead of hanging it.
    func wait(for text: String, in stream: PipedSession.Stream, timeout: Duration = mustSucceedTimeout) async throws {
        let bytes = Array(text.utf8)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let id = state.withLock { state -> Int? in
                if Self.contains(state.received[stream] ?? [], bytes) { return nil }
                defer { state.nextID += 1 }
                state.waiters.append(Waiter(id: state.nextID, stream: stream, bytes: bytes, continuation: continuation))
                return state.nextID
            }
            guard let id else { return continuation.resume() }
            EventLoop.shared.schedule(after: timeout) { [self] in
                let expired = state.withLock { state -> (Waiter, String)? in
                    guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                    return (state.waiters.remove(at: index), String(decoding: state.received[stream] ?? [], as: UTF8.self))
                }
                guard let (waiter, shown) = expired else { return }
                waiter.continuation.resume(throwing: Timeout(description:
                    "Timed out after \(timeout) waiting for \(stream) to show \(text.debugDescription); "
                    + "it showed \(String(shown.suffix(300)).debugDescription)"))
            }
        }
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        if needle.isEmpty { return true }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return true
        }
        return false
    }
}
