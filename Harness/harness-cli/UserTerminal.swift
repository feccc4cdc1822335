#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The user's own terminal, for `harness record`: its size, raw mode, and plain reads and
/// writes of its descriptors. The only file of this module that calls libc directly.
enum UserTerminal {
    /// A failed system call.
    struct SystemError: Error, CustomStringConvertible {
        var operation: String
        var code: Int32
        var description: String { "\(operation): \(String(cString: strerror(code)))" }
    }

    /// The saved settings of a terminal put in raw mode.
    struct SavedMode: @unchecked Sendable {
        let descriptor: Int32
        let settings: termios
    }

    /// Whether `descriptor` is a terminal.
    static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// The window size of the terminal on `descriptor`, or nil.
    static func size(of descriptor: Int32) -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Puts the terminal on `descriptor` in raw mode (no echo, no line editing, no signals from
    /// keys, no output processing) and returns the settings to restore.
    static func makeRaw(_ descriptor: Int32) throws -> SavedMode {
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else { throw SystemError(operation: "tcgetattr", code: errno) }
        let saved = SavedMode(descriptor: descriptor, settings: settings)
        cfmakeraw(&settings)
        // TCSANOW, not TCSAFLUSH: keys typed before raw mode are kept and recorded.
        guard tcsetattr(descriptor, TCSANOW, &settings) == 0 else { throw SystemError(operation: "tcsetattr", code: errno) }
        return saved
    }

    /// Restores settings saved by ``makeRaw(_:)``.
    static func restore(_ saved: SavedMode) {
        var settings = saved.settings
        _ = tcsetattr(saved.descriptor, TCSADRAIN, &settings)
    }

    /// Writes every byte (retrying short writes and EINTR); gives up silently on other errors.
    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }

    /// A pipe to wake a reader blocked in ``readOrWake(_:wake:)``.
    static func makePipe() throws -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else { throw SystemError(operation: "pipe", code: errno) }
        return (descriptors[0], descriptors[1])
    }

    /// Closes a descriptor.
    static func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }

    /// Waits until `descriptor` is readable or `wake` is, then reads: the bytes read, `[]` at
    /// the end of input, nil when woken (or on an error).
    static func readOrWake(_ descriptor: Int32, wake: Int32) -> [UInt8]? {
        while true {
            var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if fds[1].revents != 0 { return nil }
            guard fds[0].revents != 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return nil
            }
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
    static func ignoreSignal(_ signalNumber: Int32) { _ = signal(signalNumber, SIG_IGN) }
}
