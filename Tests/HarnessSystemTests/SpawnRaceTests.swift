// The fork/ETXTBSY race: a script written by one thread is executed while a child forked by
// another thread still holds the script's write descriptor (inherited between its fork and its
// exec), and execve fails with "Text file busy". The harness's spawn waits for the spawns that
// began before it, whose children have closed those copies by the time they executed; a child
// spawned another way (`posix_spawn`, as Foundation's `Process` and Swift Testing's exit tests
// spawn) holds its copies only until its own exec, so the harness's child retries that error.

#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import HarnessSystem

@Suite struct SpawnRaceTests {
    /// Rounds of "write a script, run it" while four other threads spawn without pause (one of
    /// them with posix_spawn): 300 in the suite, 10,000 in the CI step of their own (`.ci/run`).
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
        for index in 0..<4 {
            let thread = Thread {
                defer { spawners.withLockNotifying { $0 -= 1 } }
                while !stop.withLock({ $0 }) {
                    if index == 3 {
                        // A spawn the harness does not see: glibc's posix_spawn.
                        if let failure = Self.spawnForeign("/bin/true") { spawnFailures.withLock { $0.append(failure) } }
                        continue
                    }
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

    /// Runs `path` through the C library's `posix_spawn` and waits for it; a message on failure.
    static func spawnForeign(_ path: String) -> String? {
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(path), nil]
        defer { free(argv[0]) }
        var environment: [UnsafeMutablePointer<CChar>?] = [nil]
        let spawned = posix_spawn(&pid, path, nil, nil, argv, &environment)
        guard spawned == 0 else { return "posix_spawn: \(String(cString: strerror(spawned)))" }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return nil
    }
}
