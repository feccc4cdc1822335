#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The controlling terminal as the app uses it: raw mode, the alternate screen, writes, size.
///
/// The only file of the app that calls libc. `restore()` puts the terminal back exactly as it
/// was; it is idempotent and safe to call on every way out.
final class TerminalDevice {
    private let input: Int32
    private let output: Int32
    private var original: termios?
    private var active = false

    init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        self.input = input
        self.output = output
    }

    /// Whether both standard input and output are terminals.
    static func isInteractive() -> Bool {
        isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
    }

    /// Raw mode, alternate screen, hidden cursor.
    func enterFullScreen() throws(TerminalDeviceError) {
        var attributes = termios()
        guard tcgetattr(input, &attributes) == 0 else { throw .call("tcgetattr", errno) }
        original = attributes
        attributes.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        attributes.c_oflag &= ~tcflag_t(OPOST)
        attributes.c_cflag |= tcflag_t(CS8)
        attributes.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        withUnsafeMutableBytes(of: &attributes.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(input, TCSAFLUSH, &attributes) == 0 else { throw .call("tcsetattr", errno) }
        active = true
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J")
    }

    /// Main screen, visible cursor, the terminal's original mode. Idempotent.
    func restore() {
        guard active else { return }
        active = false
        write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        if var original {
            _ = tcsetattr(input, TCSAFLUSH, &original)
        }
    }

    /// The window size in columns and rows (80x24 if the terminal does not say).
    func size() -> (cols: Int, rows: Int) {
        var size = winsize()
        if ioctl(output, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 {
            return (Int(size.ws_col), Int(size.ws_row))
        }
        return (80, 24)
    }

    /// Writes all of `text`, retrying short writes and `EINTR`; gives up quietly if the terminal is gone.
    func write(_ text: String) {
        var bytes = Array(text.utf8)
        Self.writeAll(output, &bytes)
    }

    /// Reads what is available on the input (at most 4 KiB); an empty array at end of input.
    func read() throws(TerminalDeviceError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc_read(input, $0.baseAddress, $0.count) }
            if count >= 0 { return Array(buffer.prefix(count)) }
            let code = errno
            if code == EINTR || code == EAGAIN { continue }
            throw .call("read", code)
        }
    }

    static func writeAll(_ fd: Int32, _ bytes: inout [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc_write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}

/// A terminal call that failed.
enum TerminalDeviceError: Error, CustomStringConvertible {
    case call(String, Int32)

    var description: String {
        switch self {
        case .call(let name, let code): "\(name) failed: \(String(cString: strerror(code)))"
        }
    }
}

@inline(__always) private func Glibc_read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}

@inline(__always) private func Glibc_write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}
