// The baseline: the same echo program on a bare pty, driven with write(2) and poll(2)/read(2)
// directly (the measured path stays raw libc on purpose; the pty and the spawn come from
// HarnessSystem, as the session's do). All libc calls of the benchmark live in this file.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HarnessSystem

/// A program on a bare pseudo-terminal: write a byte, wait for its echo.
final class RawPseudoTerminalEcho {
    private let master: Int32
    private let pid: pid_t

    /// Starts `/bin/sh -c script` on a fresh 80x24 pty.
    init(script: String) throws {
        let pty: (master: Int32, slave: Int32)
        do { pty = try Posix.openPseudoTerminal(cols: 80, rows: 24) } catch { throw BenchmarkError.system("openpty") }
        defer { Posix.closeIgnoringErrors(pty.slave) }
        let pid: Int32
        do {
            pid = try Posix.spawnInPseudoTerminal(
                path: "/bin/sh", arguments: ["/bin/sh", "-c", script],
                environment: ["PATH=/usr/bin:/bin", "TERM=xterm-256color"], workingDirectory: nil, slave: pty.slave)
        } catch {
            Posix.closeIgnoringErrors(pty.master)
            throw BenchmarkError.system("spawn")
        }
        let master = pty.master
        self.master = master
        self.pid = pid
    }

    /// Reads until `marker` has been seen (for the program's "ready" line).
    func readUntil(_ marker: String) throws {
        var seen: [UInt8] = []
        let wanted = Array(marker.utf8)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !seen.suffix(wanted.count + 64).elementsEqual(wanted) && !containsSubsequence(seen, wanted) {
            let count = read(master, &buffer, buffer.count)
            if count <= 0 { throw BenchmarkError.system("read") }
            seen += buffer[0..<count]
        }
    }

    private func containsSubsequence(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start..<start + needle.count].elementsEqual(needle) {
            return true
        }
        return false
    }

    /// Writes one byte and waits (poll + read) until it comes back; returns nanoseconds.
    func roundTrip(_ byte: UInt8) throws -> UInt64 {
        var value = byte
        var received: UInt8 = 0
        let start = monotonicNanoseconds()
        guard write(master, &value, 1) == 1 else { throw BenchmarkError.system("write") }
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        repeat {
            guard poll(&descriptor, 1, 10_000) == 1 else { throw BenchmarkError.system("poll") }
            guard read(master, &received, 1) == 1 else { throw BenchmarkError.system("read") }
        } while received != byte
        return monotonicNanoseconds() - start
    }

    /// Ends the program and reaps it.
    func close() {
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        _ = closeDescriptor(master)
    }
}

/// The package's monotonic clock in nanoseconds.
func monotonicNanoseconds() -> UInt64 { MonotonicClock.nanoseconds() }

/// A benchmark step that could not run.
enum BenchmarkError: Error, CustomStringConvertible {
    case system(String)

    var description: String {
        switch self {
        case .system(let operation): return "\(operation) failed (errno \(errno))"
        }
    }
}

#if canImport(Glibc)
private let closeDescriptor = Glibc.close
#elseif canImport(Darwin)
private let closeDescriptor = Darwin.close
#endif
