// The fork/ETXTBSY race: a script written by one thread is executed while a child forked by
// another thread still holds the script's write descriptor (inherited between its fork and its
// exec), and execve fails with "Text file busy". The harness's spawn waits for the spawns that
// began before it, whose children have closed those copies by the time they executed.

#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import HarnessSystem

@Suite struct SpawnRaceTests {
    /// Rounds of "write a script, run it" while three other threads spawn without pause: 300 in
    /// the suite, 10,000 in the CI step of their own (`.ci/run`).
    static let rounds = ProcessInfo.processInfo.environment["HARNESS_SPAWN_RACE_ROUNDS"].flatMap(Int.init) ?? 300

    @Test func scriptWrittenByOneThreadRunsWhileOthersSpawn() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spawn-race-\(getpid())-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let null = try Posix.openForReading("/dev/null")
        defer { Posix.closeIgnoringErrors(null) }

        let stop = Locked(false)
        let spawners = Locked(0)
        let spawnFailures = Locked<[String]>([])
        for _ in 0..<3 {
            let thread = Thread {
                defer { spawners.withLockNotifying { $0 -= 1 } }
                while !stop.withLock({ $0 }) {
                    do {
                        let pid = try Posix.spawnWithPipes(
                            path: "/bin/true", arguments: ["true"], environment: [], workingDirectory: nil,
                            standardInput: null, standardOutput: null, standardError: null)
                        _ = try Posix.waitForTermination(pid)
                    } catch {
                        spawnFailures.withLock { $0.append("\(error)") }
                    }
                }
            }
            spawners.withLock { $0 += 1 }
            thread.start()
        }
        defer {
            stop.withLock { $0 = true }
            spawners.wait(until: { $0 == 0 })
        }

        var failures: [String] = []
        for round in 0..<Self.rounds {
            let script = folder.appendingPathComponent("script-\(round)").path
            // As a test would write it: Foundation, then chmod.
            guard FileManager.default.createFile(atPath: script, contents: Data("#!/bin/sh\nexit 3\n".utf8)) else {
                Issue.record("could not write \(script)")
                return
            }
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
            do {
                let pid = try Posix.spawnWithPipes(
                    path: script, arguments: [script], environment: [], workingDirectory: nil,
                    standardInput: null, standardOutput: null, standardError: null)
                let status = try Posix.waitForTermination(pid)
                if status != .exited(3) { failures.append("round \(round): \(status)") }
            } catch {
                failures.append("round \(round): \(error)")
            }
            try? FileManager.default.removeItem(atPath: script)
            if failures.count >= 5 { break }
        }
        #expect(failures.isEmpty, "launches of a freshly written script failed: \(failures.joined(separator: "; "))")
        #expect(spawnFailures.withLock { $0 }.isEmpty)
    }
}
