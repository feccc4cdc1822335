// Spawning, reaping, signals and process groups.

import Foundation
import Testing
@testable import HarnessSystem

@Suite struct ProcessTests {
    private func spawn(_ script: String) throws -> Int32 {
        let null = try Posix.openForReading("/dev/null")
        defer { Posix.closeIgnoringErrors(null) }
        return try Posix.spawnWithPipes(
            path: "/bin/sh", arguments: ["sh", "-c", script], environment: ["PATH=/usr/bin:/bin"],
            workingDirectory: nil, standardInput: null, standardOutput: null, standardError: null)
    }

    @Test func exitCodeIsReaped() throws {
        let pid = try spawn("exit 3")
        #expect(try Posix.waitForTermination(pid) == .exited(3))
    }

    @Test func killedProgramIsReportedSignaled() throws {
        let pipe = try Posix.makePipe()
        defer { Posix.closeIgnoringErrors(pipe.read); Posix.closeIgnoringErrors(pipe.write) }
        // `cat` reading a pipe whose writer we hold open blocks until killed.
        let sleeper = try Posix.spawnWithPipes(
            path: "/bin/sh", arguments: ["sh", "-c", "exec cat"], environment: ["PATH=/usr/bin:/bin"],
            workingDirectory: nil, standardInput: pipe.read, standardOutput: pipe.write, standardError: pipe.write)
        // The program leads its own process group.
        #expect(Posix.exists(-sleeper))
        #expect(try Posix.killProcessGroup(sleeper, SIGKILL))
        #expect(try Posix.waitForTermination(sleeper) == .signaled(SIGKILL))
        #expect(!Posix.exists(-sleeper))
    }

    /// A session's teardown kills what is left of its group only while a process that started
    /// before its child was reaped is in it: a group of that number started later is another
    /// program's (the number was free again).
    @Test func groupMembersAreCountedByWhenTheyStarted() throws {
        let before = Posix.bootClockTicks()
        while Posix.bootClockTicks() == before {}  // the next clock tick: what starts now starts later
        let pipe = try Posix.makePipe()
        defer { Posix.closeIgnoringErrors(pipe.read); Posix.closeIgnoringErrors(pipe.write) }
        let program = try Posix.spawnWithPipes(
            path: "/bin/sh", arguments: ["sh", "-c", "exec cat"], environment: ["PATH=/usr/bin:/bin"],
            workingDirectory: nil, standardInput: pipe.read, standardOutput: pipe.write, standardError: pipe.write)
        defer {
            _ = try? Posix.killProcessGroup(program, SIGKILL)
            _ = try? Posix.waitForTermination(program)
        }
        #expect(Posix.livingMembers(ofProcessGroup: program) == [program])
        #expect(Posix.livingMembers(ofProcessGroup: program, startedBy: before).isEmpty)
        #expect(Posix.livingMembers(ofProcessGroup: program, startedBy: Posix.bootClockTicks()) == [program])
    }

    @Test func missingProgramFailsInTheChildStep() throws {
        let null = try Posix.openForReading("/dev/null")
        defer { Posix.closeIgnoringErrors(null) }
        let error = #expect(throws: SystemError.self) {
            try Posix.spawnWithPipes(
                path: "/nonexistent/program", arguments: ["program"], environment: [], workingDirectory: nil,
                standardInput: null, standardOutput: null, standardError: null)
        }
        #expect(error?.operation == "execve (in the child)")
        #expect(error?.errno == ENOENT)
    }

    @Test func waitStatusDecoding() {
        #expect(Posix.decodeWaitStatus(0) == .exited(0))
        #expect(Posix.decodeWaitStatus(3 << 8) == .exited(3))
        #expect(Posix.decodeWaitStatus(9) == .signaled(9))
        #expect(Posix.signalName(SIGTERM) == "SIGTERM")
        #expect(Posix.signalName(0) == nil)
    }

    @Test func waitingForProcessesAlreadyGoneReturnsAtOnce() throws {
        let pid = try spawn("exit 0")
        _ = try Posix.waitForTermination(pid)
        #expect(Posix.waitUntilExited([pid], timeout: .seconds(60)))
    }
}
