#if os(Linux)
import Foundation
import TestSupport
import Testing
import Harness
@testable import HarnessCore

/// Live sessions cost no threads: the process has as many threads with 24 sessions typing and
/// waiting as with one (one event loop reads every terminal and reaps every child).
///
/// The count is `Threads:` of `/proc/self/status`, which other suites running in parallel
/// move too (their own threads come and go). What sessions would add stays for as long as they
/// live, so each round compares the count with 1 and with 24 live sessions taken moments
/// apart, and the check holds when one round of three shows no growth beyond a small slack
/// (a design with a thread per session adds 23 or more in every round).
@Suite(.serialized) struct SessionThreadScalingTests {
    /// Threads other suites may start between two samples of one round without failing it.
    static let slack = 8
    static let sessions = 24

    /// `/bin/sh` that says ready, then answers each line it reads.
    static func echoProgram() -> TerminalSession.Configuration {
        shell(#"printf 'ready\n'; while read line; do printf 'got %s\n' "$line"; done"#)
    }

    /// Launches the program, waits for it, types a line and waits for the answer.
    static func launchAndDrive(_ index: Int) async throws -> TerminalSession {
        let session = try TerminalSession.launch(echoProgram())
        do {
            try await session.waitFor(text: "ready")
            try session.type("line\(index)\r")
            try await session.waitFor(text: "got line\(index)")
            return session
        } catch {
            session.terminate()
            throw error
        }
    }

    /// How many threads the process has now.
    static func threadCount() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Threads:") }),
              let count = Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces))
        else { throw ThreadCountUnreadable() }
        return count
    }

    struct ThreadCountUnreadable: Error, CustomStringConvertible {
        var description: String { "no Threads: line in /proc/self/status" }
    }

    /// One round: the growth of the thread count from 1 to 24 live sessions.
    static func growth() async throws -> Int {
        let first = try await launchAndDrive(0)
        defer { first.terminate() }
        // Both samples are taken while the sessions are live and idle (waiting for input).
        let withOne = try threadCount()
        let others = try await withThrowingTaskGroup(of: TerminalSession.self) { group in
            for index in 1..<sessions { group.addTask { try await launchAndDrive(index) } }
            var launched: [TerminalSession] = []
            do {
                for try await session in group { launched.append(session) }
            } catch {
                for session in launched { session.terminate() }
                throw error
            }
            return launched
        }
        defer { for session in others { session.terminate() } }
        // Every session types once more and waits, all at the same time, then the count is read.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, session) in ([first] + others).enumerated() {
                group.addTask {
                    try session.type("again\(index)\r")
                    try await session.waitFor(text: "got again\(index)")
                }
            }
            try await group.waitForAll()
        }
        let withMany = try threadCount()
        return withMany - withOne
    }

    @Test func theThreadCountDoesNotGrowWithTheNumberOfLiveSessions() async throws {
        var growths: [Int] = []
        for _ in 0..<3 {
            let growth = try await Self.growth()
            growths.append(growth)
            if growth <= Self.slack { break }
        }
        #expect(
            growths.min()! <= Self.slack,
            "from 1 to \(Self.sessions) live sessions the process gained \(growths) threads (rounds), more than \(Self.slack)")
    }
}
#endif
