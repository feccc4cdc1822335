// The only file of the module that talks to libc directly. Every call that can
// be interrupted is retried on EINTR, and failures throw a PosixError carrying the errno saved right after the call.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CHarnessShims

/// Thin throwing wrappers over the system calls the harness makes.
enum Posix {
    // MARK: - The EINTR helper

    /// Runs `call` until it does not fail with EINTR; throws a `PosixError` named
    /// `operation` when it returns -1 with any other errno.
    @inline(__always)
    static func retryingInterrupts<Result: BinaryInteger>(
        _ operation: @autoclosure () -> String, _ call: () -> Result
    ) throws(PosixError) -> Result {
        while true {
            let result = call()
            if result != -1 { return result }
            let saved = currentErrno
            if saved == EINTR { continue }
            throw PosixError(operation: operation(), errno: saved)
        }
    }

    /// The system's message for an errno value (`strerror`).
    static func errorMessage(_ number: Int32) -> String {
        String(cString: strerror(number))
    }

    /// The calling thread's `errno`.
    static var currentErrno: Int32 { errno }

    // MARK: - Descriptors

    /// `read(2)`; returns the number of bytes (0 at end of file).
    /// `EAGAIN` is returned as `nil` rather than thrown.
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(PosixError) -> Int? {
        do {
            return try retryingInterrupts("read") { libcRead(fd, buffer.baseAddress, buffer.count) }
        } catch where error.errno == EAGAIN || error.errno == EWOULDBLOCK {
            return nil
        }
    }

    /// `write(2)`; returns the number of bytes written, `nil` on `EAGAIN`.
    static func write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) throws(PosixError) -> Int? {
        do {
            return try retryingInterrupts("write") { libcWrite(fd, buffer.baseAddress, buffer.count) }
        } catch where error.errno == EAGAIN || error.errno == EWOULDBLOCK {
            return nil
        }
    }

    /// `write(2)` of an array; returns the number of bytes written (0 on `EAGAIN`).
    static func write(_ fd: Int32, bytes: [UInt8]) throws(PosixError) -> Int {
        let result: Result<Int?, PosixError> = bytes.withUnsafeBytes { buffer in
            do throws(PosixError) { return .success(try write(fd, buffer)) } catch { return .failure(error) }
        }
        return try result.get() ?? 0
    }

    /// `close(2)`. EINTR is not retried: on Linux the descriptor is released anyway.
    static func close(_ fd: Int32) throws(PosixError) {
        if libcClose(fd) == -1 {
            let saved = currentErrno
            if saved != EINTR { throw PosixError(operation: "close", errno: saved) }
        }
    }

    /// Makes `fd` non-blocking.
    static func setNonBlocking(_ fd: Int32) throws(PosixError) {
        let flags = try retryingInterrupts("fcntl(F_GETFL)") { fcntl(fd, F_GETFL) }
        _ = try retryingInterrupts("fcntl(F_SETFL)") { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    }

    /// A non-blocking, close-on-exec pipe: (read end, write end).
    static func makeWakeUpPipe() throws(PosixError) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        _ = try retryingInterrupts("pipe") { libcPipe(&fds) }
        for fd in fds {
            let flags = fcntl(fd, F_GETFD)
            _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC)
            try setNonBlocking(fd)
        }
        return (fds[0], fds[1])
    }

    /// A blocking pipe with both ends close-on-exec (set atomically on Linux): (read end, write end).
    static func makePipe() throws(PosixError) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        _ = try retryingInterrupts("pipe") { harness_pipe_cloexec(&fds) }
        return (fds[0], fds[1])
    }

    /// Opens `path` read-only and close-on-exec.
    static func openForReading(_ path: String) throws(PosixError) -> Int32 {
        try retryingInterrupts("open \(path)") { open(path, O_RDONLY | O_CLOEXEC) }
    }

    /// `write(2)` that never raises SIGPIPE: a reader that is gone is `EPIPE`, thrown.
    /// Returns the number of bytes written, `nil` on `EAGAIN`.
    static func writeWithoutSignal(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) throws(PosixError) -> Int? {
        do {
            return try retryingInterrupts("write") { harness_write_without_sigpipe(fd, buffer.baseAddress, UInt(buffer.count)) }
        } catch where error.errno == EAGAIN || error.errno == EWOULDBLOCK {
            return nil
        }
    }

    // MARK: - Polling

    /// Events reported by `poll` for one descriptor.
    struct PollEvents: OptionSet {
        let rawValue: Int16
        static let readable = PollEvents(rawValue: Int16(POLLIN))
        static let writable = PollEvents(rawValue: Int16(POLLOUT))
        static let hangUp = PollEvents(rawValue: Int16(POLLHUP))
        static let error = PollEvents(rawValue: Int16(POLLERR))
        static let invalid = PollEvents(rawValue: Int16(POLLNVAL))
    }

    /// `poll(2)` on the given descriptors; returns the events that occurred on each.
    /// `timeoutMilliseconds` of -1 waits without limit.
    static func poll(_ requests: [(fd: Int32, events: PollEvents)], timeoutMilliseconds: Int32) throws(PosixError) -> [PollEvents] {
        var fds = requests.map { pollfd(fd: $0.fd, events: $0.events.rawValue, revents: 0) }
        _ = try retryingInterrupts("poll") {
            fds.withUnsafeMutableBufferPointer { libcPoll($0.baseAddress, nfds_t($0.count), timeoutMilliseconds) }
        }
        return fds.map { PollEvents(rawValue: $0.revents) }
    }

    // MARK: - Terminal

    /// Opens a pseudo-terminal pair of the given size (both ends close-on-exec).
    static func openPseudoTerminal(cols: Int, rows: Int) throws(PosixError) -> (master: Int32, slave: Int32) {
        var master: Int32 = -1
        var slave: Int32 = -1
        var failedOperation: UnsafePointer<CChar>? = nil
        let result = harness_open_pty(&master, &slave, UInt16(clamping: cols), UInt16(clamping: rows), &failedOperation)
        if result != 0 {
            let name = failedOperation.map { String(cString: $0) } ?? "openpty"
            throw PosixError(operation: name, errno: result)
        }
        return (master, slave)
    }

    /// Sets the window size of the terminal behind `fd` (`TIOCSWINSZ`).
    static func setWindowSize(_ fd: Int32, cols: Int, rows: Int) throws(PosixError) {
        var size = winsize(ws_row: UInt16(clamping: rows), ws_col: UInt16(clamping: cols), ws_xpixel: 0, ws_ypixel: 0)
        _ = try retryingInterrupts("ioctl(TIOCSWINSZ)") { ioctl(fd, UInt(TIOCSWINSZ), &size) }
    }

    /// Reads the window size of the terminal behind `fd` (`TIOCGWINSZ`).
    static func windowSize(_ fd: Int32) throws(PosixError) -> (cols: Int, rows: Int) {
        var size = winsize()
        _ = try retryingInterrupts("ioctl(TIOCGWINSZ)") { ioctl(fd, UInt(TIOCGWINSZ), &size) }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    // MARK: - Processes

    /// Forks and executes a program in a new session on the pty slave (see CHarnessShims).
    static func spawnInPseudoTerminal(
        path: String, arguments: [String], environment: [String], workingDirectory: String?, slave: Int32
    ) throws(PosixError) -> Int32 {
        var pid: pid_t = 0
        var failedStep: Int32 = 0
        let result = withCStringArray(arguments) { argv in
            withCStringArray(environment) { envp in
                withOptionalCString(workingDirectory) { cwd in
                    harness_spawn_in_pty(path, argv, envp, cwd, slave, &pid, &failedStep)
                }
            }
        }
        if result != 0 {
            throw PosixError(operation: spawnStepName(failedStep), errno: result)
        }
        return pid
    }

    /// Forks and executes a program in a new session (its own process group, no terminal) with
    /// the given descriptors as its standard input, output and error (see CHarnessShims).
    static func spawnWithPipes(
        path: String, arguments: [String], environment: [String], workingDirectory: String?,
        standardInput: Int32, standardOutput: Int32, standardError: Int32
    ) throws(PosixError) -> Int32 {
        var pid: pid_t = 0
        var failedStep: Int32 = 0
        let result = withCStringArray(arguments) { argv in
            withCStringArray(environment) { envp in
                withOptionalCString(workingDirectory) { cwd in
                    harness_spawn_with_pipes(path, argv, envp, cwd, standardInput, standardOutput, standardError, &pid, &failedStep)
                }
            }
        }
        if result != 0 {
            throw PosixError(operation: spawnStepName(failedStep), errno: result)
        }
        return pid
    }

    private static func spawnStepName(_ step: Int32) -> String {
        switch UInt32(step) {
        case HARNESS_SPAWN_STEP_SETSID.rawValue: return "setsid (in the child)"
        case HARNESS_SPAWN_STEP_CONTROLLING_TERMINAL.rawValue: return "ioctl(TIOCSCTTY) (in the child)"
        case HARNESS_SPAWN_STEP_DUP2.rawValue: return "dup2 (in the child)"
        case HARNESS_SPAWN_STEP_CHDIR.rawValue: return "chdir (in the child)"
        case HARNESS_SPAWN_STEP_EXECVE.rawValue: return "execve (in the child)"
        case HARNESS_SPAWN_STEP_PIPE.rawValue: return "pipe"
        case HARNESS_SPAWN_STEP_FORK.rawValue: return "fork"
        default: return "spawn"
        }
    }

    /// `kill(2)`; returns false when no such process or group exists (ESRCH).
    @discardableResult
    static func kill(_ pid: Int32, _ signal: Int32) throws(PosixError) -> Bool {
        if libcKill(pid, signal) == 0 { return true }
        let saved = currentErrno
        if saved == ESRCH { return false }
        throw PosixError(operation: "kill", errno: saved)
    }

    /// Whether a process or process group (negative id) exists, by `kill(id, 0)`.
    static func exists(_ pid: Int32) -> Bool {
        libcKill(pid, 0) == 0 || currentErrno == EPERM
    }

    /// The processes of a process group that are not zombies, from `/proc` (Linux; empty elsewhere).
    static func livingMembers(ofProcessGroup group: Int32) -> [Int32] {
        guard let directory = opendir("/proc") else { return [] }
        defer { closedir(directory) }
        var members: [Int32] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard let pid = Int32(name), let stat = readSmallFile("/proc/\(name)/stat") else { continue }
            // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses.
            guard let close = stat.lastIndex(of: UInt8(ascii: ")")) else { continue }
            let fields = stat[(close + 1)...].split(separator: UInt8(ascii: " "))
            guard fields.count > 3, let state = fields[0].first, state != UInt8(ascii: "Z"), state != UInt8(ascii: "X"),
                  let pgrp = Int32(String(decoding: fields[2], as: UTF8.self)), pgrp == group else { continue }
            members.append(pid)
        }
        return members
    }

    private static func readSmallFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { _ = libcClose(fd) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { libcRead(fd, $0.baseAddress, $0.count) }
        return count > 0 ? Array(buffer[0..<count]) : nil
    }

    /// Waits until every given process has exited (or `timeoutMilliseconds` passed), using
    /// pidfds: event driven, no polling loop. Processes already gone are skipped. Returns false
    /// on timeout or when pidfds are unavailable.
    @discardableResult
    static func waitUntilExited(_ pids: [Int32], timeoutMilliseconds: Int32) -> Bool {
        var fds: [Int32] = []
        defer { for fd in fds { _ = libcClose(fd) } }
        for pid in pids {
            let fd = harness_pidfd_open(pid)
            if fd >= 0 { fds.append(fd) } else if currentErrno != ESRCH { return false }
        }
        let deadline = monotonicNanoseconds() + UInt64(max(0, timeoutMilliseconds)) * 1_000_000
        var pending = fds
        while !pending.isEmpty {
            let now = monotonicNanoseconds()
            if now >= deadline { return false }
            let wait = Int32(clamping: (deadline - now) / 1_000_000 + 1)
            guard let events = try? poll(pending.map { ($0, PollEvents.readable) }, timeoutMilliseconds: wait) else { return false }
            pending = zip(pending, events).filter { $0.1.isEmpty }.map(\.0)
        }
        return true
    }

    /// `CLOCK_MONOTONIC` in nanoseconds.
    static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Blocks until `pid` changes state to exited or signaled; returns the raw wait status.
    static func waitForTermination(_ pid: Int32) throws(PosixError) -> Int32 {
        var status: Int32 = 0
        _ = try retryingInterrupts("waitpid") { waitpid(pid, &status, 0) }
        return status
    }

    /// Decodes a raw wait status.
    static func decodeWaitStatus(_ status: Int32) -> ExitStatus {
        let signal = status & 0x7f
        if signal == 0 { return .exited((status >> 8) & 0xff) }
        return .signaled(signal)
    }

    /// The signal's short name (`"SIGKILL"`), or nil when unknown.
    static func signalName(_ signal: Int32) -> String? {
        switch signal {
        case SIGHUP: return "SIGHUP"
        case SIGINT: return "SIGINT"
        case SIGQUIT: return "SIGQUIT"
        case SIGILL: return "SIGILL"
        case SIGTRAP: return "SIGTRAP"
        case SIGABRT: return "SIGABRT"
        case SIGBUS: return "SIGBUS"
        case SIGFPE: return "SIGFPE"
        case SIGKILL: return "SIGKILL"
        case SIGUSR1: return "SIGUSR1"
        case SIGSEGV: return "SIGSEGV"
        case SIGUSR2: return "SIGUSR2"
        case SIGPIPE: return "SIGPIPE"
        case SIGALRM: return "SIGALRM"
        case SIGTERM: return "SIGTERM"
        case SIGCHLD: return "SIGCHLD"
        case SIGCONT: return "SIGCONT"
        case SIGSTOP: return "SIGSTOP"
        case SIGTSTP: return "SIGTSTP"
        case SIGTTIN: return "SIGTTIN"
        case SIGTTOU: return "SIGTTOU"
        case SIGWINCH: return "SIGWINCH"
        default: return nil
        }
    }

    // MARK: - Files

    /// What a path is, for resolving an executable before spawning.
    enum PathKind { case missing, directory, executableFile, otherFile }

    /// Classifies `path` by `stat(2)` and `access(X_OK)`.
    static func kind(ofPath path: String) -> PathKind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        if (info.st_mode & S_IFMT) == S_IFDIR { return .directory }
        return access(path, X_OK) == 0 ? .executableFile : .otherFile
    }

    /// The effective user id of this process.
    static func effectiveUserID() -> UInt32 { UInt32(geteuid()) }

    /// The owner and permission bits of `path` (not following symlinks), or nil if it cannot be read.
    static func ownerAndMode(_ path: String) -> (owner: UInt32, mode: UInt32, isDirectory: Bool)? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return (UInt32(info.st_uid), UInt32(info.st_mode) & 0o7777, (UInt32(info.st_mode) & UInt32(S_IFMT)) == UInt32(S_IFDIR))
    }

    /// Creates a fresh directory (mode 0700) from a `mkdtemp` template ending in `XXXXXX`.
    static func makeTemporaryDirectory(template: String) throws(PosixError) -> String {
        var bytes = Array(template.utf8CString)
        let result = bytes.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard result != nil else { throw PosixError(operation: "mkdtemp \(template)", errno: errno) }
        return bytes.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// The process's current working directory.
    static func currentDirectory() -> String? {
        guard let pointer = getcwd(nil, 0) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// The process's open descriptor numbers (from `/proc/self/fd` or `/dev/fd`).
    static func openDescriptors() -> [Int32] {
        let directory = opendir("/proc/self/fd") ?? opendir("/dev/fd")
        guard let directory else { return [] }
        defer { closedir(directory) }
        let own = dirfd(directory)
        var result: [Int32] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if let fd = Int32(name), fd != own { result.append(fd) }
        }
        return result.sorted()
    }

    /// What a descriptor refers to (`readlink /proc/self/fd/N`: a path, `pipe:[inode]`...).
    static func descriptorTarget(_ fd: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    // MARK: - C strings

    private static func withCStringArray<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    private static func withOptionalCString<R>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
        guard let string else { return body(nil) }
        return string.withCString { body($0) }
    }
}

// The libc functions whose names the wrappers above shadow.
#if canImport(Glibc)
private let libcRead = Glibc.read
private let libcWrite = Glibc.write
private let libcClose = Glibc.close
private let libcPipe = Glibc.pipe
private let libcPoll = Glibc.poll
private let libcKill = Glibc.kill
#elseif canImport(Darwin)
private let libcRead = Darwin.read
private let libcWrite = Darwin.write
private let libcClose = Darwin.close
private let libcPipe = Darwin.pipe
private let libcPoll = Darwin.poll
private let libcKill = Darwin.kill
#endif
