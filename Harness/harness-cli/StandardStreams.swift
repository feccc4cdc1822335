import Foundation
import HarnessCore
import HarnessSystem

/// The tool's standard output and error, written so that a reader that went away (`harness run
/// ... | head -1`, a pager the user quit) never stops a run: SIGPIPE is ignored, and a write
/// that fails (EPIPE, or any other error) stops the printing to that stream only. The run goes
/// on, writes its JUnit, history and report, and exits with its own status.
enum StandardStreams {
    /// Whether standard output (1) and standard error (2) still take writes.
    private static let open = Locked<[Int32: Bool]>([1: true, 2: true])

    /// Ignores SIGPIPE for the whole process: a write to a closed pipe then fails with EPIPE.
    /// (The harness's children start with default dispositions: the spawn resets every signal.)
    static func ignoreBrokenPipes() {
        Posix.ignoreSignal(SIGPIPE)
    }

    /// Writes every byte to `descriptor` (1 or 2), or nothing once a write to it has failed.
    static func write(_ bytes: [UInt8], to descriptor: Int32) {
        guard open.withLock({ $0[descriptor] ?? true }) else { return }
        var offset = 0
        while offset < bytes.count {
            let written: Int?
            do {
                written = try Posix.write(descriptor, bytes: bytes, from: offset)
            } catch {
                open.withLock { $0[descriptor] = false }
                return
            }
            guard let written else {
                // A non-blocking descriptor is full: wait until it takes more.
                guard (try? Posix.poll([(descriptor, .writable)], timeoutMilliseconds: -1)) != nil else { return }
                continue
            }
            offset += written
        }
    }

    /// One escaper per stream for what is passed on from a child (`swift test`'s output).
    private static let escapers = Locked<[Int32: ConsoleByteEscaper]>([:])

    /// Writes a child's output to `descriptor` with its control characters escaped
    /// (``ConsoleByteEscaper``): a test's name or message cannot drive the user's terminal.
    static func writeEscaped(_ bytes: [UInt8], to descriptor: Int32) {
        let escaped = escapers.withLock { escapers in escapers[descriptor, default: ConsoleByteEscaper()].escape(bytes) }
        write(escaped, to: descriptor)
    }

    /// Writes `text`'s UTF-8 bytes to standard output.
    static func writeOutput(_ text: String) { write(Array(text.utf8), to: 1) }

    /// Writes `text`'s UTF-8 bytes to standard error.
    static func writeError(_ text: String) { write(Array(text.utf8), to: 2) }
}
