import Foundation
import TestSupport
import Testing
import Harness
@testable import HarnessCore
import HarnessSystem

/// Fifty sessions (exited, terminated while running, failed to launch) leave no descriptor,
/// watch or process behind.
///
/// Other suites open descriptors in parallel, so a plain count of `/proc/self/fd` would race.
/// Instead every session here uses an unusual window size: a new descriptor afterwards that is
/// a pty of that size is ours.
@Suite(.serialized) struct ResourceLeakTests {
    static let markerSize = TerminalSize(cols: 173, rows: 7)

    @Test func fiftySessionsLeaveNothingBehind() async throws {
        let before = Set(Posix.openDescriptors())
        var pids: [Int32] = []

        for index in 0..<50 {
            let script = index.isMultiple(of: 2) ? "echo hi" : "echo hi; exec sleep 1000"
            let session = try TerminalSession.launch(shell(script, size: Self.markerSize))
            try await session.waitFor(text: "hi")
            if index.isMultiple(of: 2) { #expect(try await session.waitForExit() == .exited(0)) }
            session.terminate()
            #expect(session.core.isFullyReleased, "session \(index): still watched by the loop, or its master open")
            pids.append(session.pid)
        }
        let directory = try TemporaryDirectory(prefix: "harness").url
        defer { try? FileManager.default.removeItem(at: directory) }
        let garbage = directory.appendingPathComponent("garbage").path
        _ = FileManager.default.createFile(atPath: garbage, contents: Data([1, 2, 3]), attributes: [.posixPermissions: 0o755])
        for _ in 0..<10 {
            var configuration = TerminalSession.Configuration(executable: garbage)
            configuration.size = Self.markerSize
            #expect(throws: TerminalSessionError.self) { try TerminalSession.launch(configuration) }
        }

        let leaked = Posix.openDescriptors().filter { !before.contains($0) }.compactMap { fd -> String? in
            guard let target = Posix.descriptorTarget(fd) else { return nil }
            if target.hasPrefix("/dev/pts/") || target.hasSuffix("ptmx"),
               let size = try? Posix.windowSize(fd), size.cols == Self.markerSize.cols, size.rows == Self.markerSize.rows {
                return "\(fd) -> \(target)"
            }
            return nil
        }
        #expect(leaked.isEmpty, "leaked descriptors: \(leaked)")

        for pid in pids {
            var status: Int32 = 0
            #expect(waitpid(pid, &status, WNOHANG) == -1, "process \(pid) was not reaped")
            #expect(Posix.livingMembers(ofProcessGroup: pid).isEmpty, "group \(pid) still runs")
        }
    }
}
