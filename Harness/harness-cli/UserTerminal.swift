// The user's own terminal for `harness record`, on top of HarnessSystem's `Posix`.

import Foundation
import HarnessSystem

/// The user's own terminal, for `harness record`: its size, raw mode, and plain reads and
/// writes of its descriptors.
enum UserTerminal {
    /// The saved settings of a terminal put in raw mode.
    typealias SavedMode = Posix.TerminalMode

    /// Whether `descriptor` is a terminal.
    static func isTerminal(_ descriptor: Int32) -> Bool { Posix.isTerminal(descriptor) }

    /// The window size of the terminal on `descriptor`, or nil.
    static func size(of descriptor: Int32) -> (columns: Int, rows: Int)? {
        guard let size = try? Posix.windowSize(descriptor), size.cols > 0, size.rows > 0 else { return nil }
        return (size.cols, size.rows)
    }

    /// Puts the terminal on `descriptor` in raw mode (no echo, no line editing, no signals from
    /// keys, no output processing) and returns the settings to restore.
    static func makeRaw(_ descriptor: Int32) throws -> SavedMode {
        try Posix.makeRaw(descriptor)
    }

    /// Restores settings saved by ``makeRaw(_:)``.
    static func restore(_ saved: SavedMode) { Posix.restore(saved) }

    /// Writes every byte (retrying short writes); gives up silently on errors.
    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let result: Int?
            do { result = try Posix.write(descriptor, bytes: bytes, from: offset) } catch { return }
            guard let written = result else {
                // A non-blocking terminal is full: wait until it takes more.
                guard (try? Posix.poll([(descriptor, .writable)], timeoutMilliseconds: -1)) != nil else { return }
                continue
            }
            offset += written
        }
    }

    /// A pipe to wake a reader blocked in ``readOrWake(_:wake:)``.
    static func makePipe() throws -> (read: Int32, write: Int32) { try Posix.makePipe() }

    /// Closes a descriptor.
    static func closeDescriptor(_ descriptor: Int32) { Posix.closeIgnoringErrors(descriptor) }

    /// Waits until `descriptor` is readable or `wake` is, then reads: the bytes read, `[]` at
    /// the end of input, nil when woken (or on an error).
    static func readOrWake(_ descriptor: Int32, wake: Int32) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            guard let ready = try? Posix.poll([(descriptor, .readable), (wake, .readable)], timeoutMilliseconds: -1) else {
                return nil
            }
            if !ready[1].isEmpty { return nil }
            guard !ready[0].isEmpty else { continue }
            let result: Int?
            do { result = try Posix.read(descriptor, into: &buffer) } catch { return nil }
            guard let count = result else { continue }  // would block: poll again
            return Array(buffer.prefix(count))
        }
    }
}

extension UserTerminal {
    /// The signals `harness record` handles: resizes, and requests to stop.
    static let windowChangeSignal = SIGWINCH
    /// Signals after which `harness record` restores the terminal and stops.
    static let stopSignals: [Int32] = [SIGTERM, SIGHUP, SIGINT]

    /// Stops the default action of `signal` so a dispatch source can handle it.
    static func ignoreSignal(_ signalNumber: Int32) { Posix.ignoreSignal(signalNumber) }
}
