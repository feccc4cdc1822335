// Pseudo-terminals (opened close-on-exec by the C shim), window sizes, and the raw mode of the
// user's own terminal for `harness record`.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CHarnessSystem

extension Posix {
    /// Opens a pseudo-terminal pair of the given size (both ends close-on-exec, the slave with
    /// IUTF8 set).
    package static func openPseudoTerminal(cols: Int, rows: Int) throws(SystemError) -> (master: Int32, slave: Int32) {
        var master: Int32 = -1
        var slave: Int32 = -1
        var failedOperation: UnsafePointer<CChar>? = nil
        let result = harness_open_pty(&master, &slave, UInt16(clamping: cols), UInt16(clamping: rows), &failedOperation)
        if result != 0 {
            throw SystemError(operation: failedOperation.map { String(cString: $0) } ?? "openpty", errno: result)
        }
        return (master, slave)
    }

    /// Sets the window size of the terminal behind `fd` (`TIOCSWINSZ`), in cells and, when
    /// given, in pixels (`ws_xpixel`, `ws_ypixel`).
    package static func setWindowSize(_ fd: Int32, cols: Int, rows: Int, pixelWidth: Int = 0, pixelHeight: Int = 0) throws(SystemError) {
        var size = winsize(ws_row: UInt16(clamping: rows), ws_col: UInt16(clamping: cols),
                           ws_xpixel: UInt16(clamping: pixelWidth), ws_ypixel: UInt16(clamping: pixelHeight))
        try retrying("ioctl(TIOCSWINSZ)") { ioctl(fd, UInt(TIOCSWINSZ), &size) }
    }

    /// Reads the window size of the terminal behind `fd` (`TIOCGWINSZ`).
    package static func windowSize(_ fd: Int32) throws(SystemError) -> (cols: Int, rows: Int) {
        var size = winsize()
        try retrying("ioctl(TIOCGWINSZ)") { ioctl(fd, UInt(TIOCGWINSZ), &size) }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Whether `fd` is a terminal.
    package static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// The settings of a terminal before ``makeRaw(_:)``, to give back to ``restore(_:)``.
    package struct TerminalMode: Sendable {
        fileprivate let fd: Int32
        fileprivate let settings: termios
    }

    /// Puts the terminal on `fd` in raw mode (no echo, no line editing, no signals from keys,
    /// no output processing) and returns the settings to restore.
    package static func makeRaw(_ fd: Int32) throws(SystemError) -> TerminalMode {
        var settings = termios()
        try retrying("tcgetattr") { tcgetattr(fd, &settings) }
        let saved = TerminalMode(fd: fd, settings: settings)
        cfmakeraw(&settings)
        // TCSANOW, not TCSAFLUSH: keys typed before raw mode are kept.
        try retrying("tcsetattr") { tcsetattr(fd, TCSANOW, &settings) }
        return saved
    }

    /// Restores settings saved by ``makeRaw(_:)`` once the output written so far has left.
    package static func restore(_ mode: TerminalMode) {
        var settings = mode.settings
        _ = try? retrying("tcsetattr") { tcsetattr(mode.fd, TCSADRAIN, &settings) }
    }
}
