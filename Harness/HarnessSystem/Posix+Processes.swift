// Processes: spawning (fork/exec in the C shim, the child in its own session and process
// group), signals to processes and groups, reaping, and waiting for a group to be gone.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CHarnessSystem

extension Posix {
    // MARK: - Spawning

    /// Forks and executes a program in a new session whose controlling terminal is the pty
    /// `slave` (also its descriptors 0, 1 and 2); returns its pid, which is also its process
    /// group id. Only async-signal-safe calls run in the child (see CHarnessSystem).
    ///
    /// With `tiedToHarness`, the program dies with this process and its descendants can be found
    /// at teardown (see ``spawnTied(_:environment:_:)``).
    package static func spawnInPseudoTerminal(
        path: String, arguments: [String], environment: [String], workingDirectory: String?, slave: Int32,
        tiedToHarness: Bool = false
    ) throws(SystemError) -> Int32 {
        try spawnTied(tiedToHarness, environment: environment) { environment, deathSignal throws(SystemError) in
            try spawn(
                path: path, arguments: arguments, environment: environment, workingDirectory: workingDirectory,
                terminal: slave, standardDescriptors: (-1, -1, -1), deathSignal: deathSignal
            )
        }
    }

    /// Forks and executes a program in a new session (its own process group, no terminal) with
    /// the given descriptors as its standard input, output and error; returns its pid.
    /// `tiedToHarness` as for ``spawnInPseudoTerminal(path:arguments:environment:workingDirectory:slave:tiedToHarness:)``.
    package static func spawnWithPipes(
        path: String, arguments: [String], environment: [String], workingDirectory: String?,
        standardInput: Int32, standardOutput: Int32, standardError: Int32, tiedToHarness: Bool = false
    ) throws(SystemError) -> Int32 {
        try spawnTied(tiedToHarness, environment: environment) { environment, deathSignal throws(SystemError) in
            try spawn(
                path: path, arguments: arguments, environment: environment, workingDirectory: workingDirectory,
                terminal: -1, standardDescriptors: (standardInput, standardOutput, standardError), deathSignal: deathSignal
            )
        }
    }

    /// Runs `spawn` as the harness spawns the programs it owns when `tied`:
    /// - on the blocking worker, whose thread lives as long as the process, with a parent-death
    ///   SIGKILL (Linux): the kernel sends it when the spawning *thread* ends, so the program dies
    ///   with the harness, even when the harness is killed by SIGKILL;
    /// - with a marker in its environment (``Descendants``) when this process is a child
    ///   subreaper, so that descendants that leave the program's process group are found at
    ///   teardown;
    /// - recorded as a child the harness spawned (``Descendants``), so that reaping orphans
    ///   never takes its status.
    /// Untied, it runs on the caller with none of these but the record.
    private static func spawnTied(
        _ tied: Bool, environment: [String],
        _ spawn: @escaping @Sendable (_ environment: [String], _ deathSignal: Int32) throws(SystemError) -> Int32
    ) throws(SystemError) -> Int32 {
        guard tied else { return try Descendants.recordingSpawn(marker: nil) { () throws(SystemError) in try spawn(environment, 0) } }
        let marker = Descendants.newMarker()
        let environment = marker.map { environment.filter { !$0.hasPrefix(Descendants.markerVariable + "=") } + ["\(Descendants.markerVariable)=\($0)"] }
            ?? environment
        #if os(Linux)
        let deathSignal = SIGKILL
        #else
        let deathSignal: Int32 = 0
        #endif
        let result = BlockingWorker.shared.runAndWait { () -> Result<Int32, SystemError> in
            Result { () throws(SystemError) in
                try Descendants.recordingSpawn(marker: marker) { () throws(SystemError) in try spawn(environment, deathSignal) }
            }
        }
        return try result.get()
    }

    /// Returns once every spawn that had begun when it was called is done: until its child
    /// executes, it holds a copy of every descriptor of this process, so a descriptor closed
    /// meanwhile is not released yet (a listening socket keeps its port). Later spawns do not
    /// delay it.
    package static func waitForSpawnsInFlight() {
        harness_wait_for_spawns_in_flight()
    }

    /// Runs the C shim's spawn with the arguments, environment and working directory as C
    /// strings; returns the new pid or throws naming the step that failed.
    private static func spawn(
        path: String, arguments: [String], environment: [String], workingDirectory: String?,
        terminal: Int32, standardDescriptors: (Int32, Int32, Int32), deathSignal: Int32
    ) throws(SystemError) -> Int32 {
        var pid: pid_t = 0
        var failedStep: Int32 = 0
        let result = withCStringArray(arguments) { argv in
            withCStringArray(environment) { envp in
                withOptionalCString(workingDirectory) { cwd in
                    path.withCString { path in
                        var request = harness_spawn_request(
                            path: path, argv: argv, envp: envp, working_directory: cwd, terminal_fd: terminal,
                            standard_fds: standardDescriptors, parent_death_signal: deathSignal, parent: 0
                        )
                        return harness_spawn(&request, &pid, &failedStep)
                    }
                }
            }
        }
        if result != 0 { throw SystemError(operation: spawnStepName(failedStep), errno: result) }
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
        case HARNESS_SPAWN_STEP_PARENT_DEATH_SIGNAL.rawValue: return "prctl(PR_SET_PDEATHSIG) (in the child)"
        default: return "spawn"
        }
    }

    // MARK: - Signals

    /// `kill(2)`; a negative `pid` signals that process group. Returns false when no such
    /// process or group exists (ESRCH).
    @discardableResult
    package static func kill(_ pid: Int32, _ signal: Int32) throws(SystemError) -> Bool {
        if libcKill(pid, signal) == 0 { return true }
        let saved = errno
        if saved == ESRCH { return false }
        throw SystemError(operation: "kill", errno: saved)
    }

    /// Sends `signal` to every process of process group `group` (`killpg`); false when the
    /// group is gone.
    @discardableResult
    package static func killProcessGroup(_ group: Int32, _ signal: Int32) throws(SystemError) -> Bool {
        try kill(-group, signal)
    }

    /// Whether a process or process group (negative id) exists, by `kill(id, 0)`.
    package static func exists(_ pid: Int32) -> Bool {
        libcKill(pid, 0) == 0 || errno == EPERM
    }

    /// Stops the default action of `signal` (SIG_IGN), so a Dispatch signal source can
    /// handle it or, for SIGPIPE, so a write to a closed socket fails with EPIPE instead.
    package static func ignoreSignal(_ signal: Int32) {
        var action = sigaction()
        #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = SIG_IGN
        #else
        action.__sigaction_u.__sa_handler = SIG_IGN
        #endif
        sigemptyset(&action.sa_mask)
        _ = sigaction(signal, &action, nil)
    }

    /// Installs handlers for `signals` that write a byte to a close-on-exec pipe, unblocks them,
    /// and returns the pipe's read end: a thread that reads it learns that one arrived.
    /// Synchronous, unlike a Dispatch signal source, so an early signal is not lost.
    package static func installSignalPipe(for signals: [Int32]) throws(SystemError) -> Int32 {
        try retrying("sigaction") { harness_install_signal_pipe(signals, Int32(signals.count)) }
    }

    /// The signals whose numbers a non-blocking signal pipe (``installSignalPipe(for:)``) holds,
    /// in the order they arrived; empty when none is waiting.
    package static func readSignals(_ fd: Int32) -> [Int32] {
        var buffer = [UInt8](repeating: 0, count: 64)
        var signals: [Int32] = []
        while let count = try? read(fd, into: &buffer), count > 0 {
            signals += buffer[0..<count].map(Int32.init)
        }
        return signals
    }

    /// Ends the process at once with `status` (`_exit`): no handler, no flush, no teardown.
    package static func exitImmediately(_ status: Int32) -> Never {
        _exit(status)
    }

    /// Blocks until a byte arrives on a blocking descriptor (a signal pipe) or it ends.
    package static func waitForByte(_ fd: Int32) {
        var byte: UInt8 = 0
        _ = try? retrying("read") { libcRead(fd, &byte, 1) }
    }

    /// The signal's short name (`"SIGKILL"`), or nil when unknown.
    package static func signalName(_ signal: Int32) -> String? {
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

    // MARK: - Reaping

    /// How a reaped process ended.
    package enum WaitStatus: Sendable, Equatable {
        /// It exited with this code.
        case exited(Int32)
        /// A signal killed it.
        case signaled(Int32)
    }

    /// Blocks until `pid` has exited or was killed, and reaps it (`waitpid`).
    package static func waitForTermination(_ pid: Int32) throws(SystemError) -> WaitStatus {
        var status: Int32 = 0
        try retrying("waitpid") { waitpid(pid, &status, 0) }
        Descendants.reaped(pid)
        return decodeWaitStatus(status)
    }

    /// Reaps `pid` if it has exited (`waitpid` with WNOHANG); nil while it runs. A child reaped
    /// by someone else (ECHILD) reads as `.exited(-1)`: its status is lost.
    package static func reapIfExited(_ pid: Int32) -> WaitStatus? {
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                Descendants.reaped(pid)
                return decodeWaitStatus(status)
            }
            if result == 0 { return nil }
            if errno == EINTR { continue }
            Descendants.reaped(pid)
            return .exited(-1)
        }
    }

    /// Decodes a raw `waitpid` status.
    package static func decodeWaitStatus(_ status: Int32) -> WaitStatus {
        let signal = status & 0x7f
        if signal == 0 { return .exited((status >> 8) & 0xff) }
        return .signaled(signal)
    }

    // MARK: - Process groups

    /// The time since the machine booted in clock ticks (`_SC_CLK_TCK`), the unit of a process's
    /// start time in `/proc/PID/stat`: a process started before this call has a start time no
    /// later than its result. 0 where the boot clock is missing.
    package static func bootClockTicks() -> UInt64 {
        #if os(Linux)
        var now = timespec()
        guard clock_gettime(CLOCK_BOOTTIME, &now) == 0 else { return 0 }
        let hertz = UInt64(max(sysconf(Int32(_SC_CLK_TCK)), 1))
        return UInt64(now.tv_sec) * hertz + UInt64(now.tv_nsec) * hertz / 1_000_000_000
        #else
        return 0
        #endif
    }

    /// The processes of a process group that are not zombies, from `/proc` (Linux; empty elsewhere).
    /// With `startedBy` (``bootClockTicks()``), only those that started no later than that.
    package static func livingMembers(ofProcessGroup group: Int32, startedBy: UInt64? = nil) -> [Int32] {
        processes { pid, fields in
            guard fields.count > 3, let state = fields[0].first, state != UInt8(ascii: "Z"), state != UInt8(ascii: "X"),
                  let pgrp = Int32(String(decoding: fields[2], as: UTF8.self)), pgrp == group else { return false }
            // The start time is the 22nd field, the 20th after "(comm)".
            guard let startedBy else { return true }
            guard fields.count > 19, let started = UInt64(String(decoding: fields[19], as: UTF8.self)) else { return false }
            return started <= startedBy
        }
    }

    /// The processes of session `session` (the program's, which it leads) that are running or
    /// runnable (`R`) or in an uninterruptible wait, disk I/O most often (`D`), from `/proc`
    /// (Linux; empty elsewhere): those that may still write without anything else happening.
    /// The others sleep until input, a timer, a signal or an answer wakes them.
    package static func busyMembers(ofSession session: Int32) -> [Int32] {
        processes { _, fields in
            guard fields.count > 3, let state = fields[0].first, state == UInt8(ascii: "R") || state == UInt8(ascii: "D") else { return false }
            return Int32(String(decoding: fields[3], as: UTF8.self)) == session
        }
    }

    /// The processes whose `/proc/PID/stat` fields after "(comm)" (state, ppid, pgrp, session,
    /// ...) `include` keeps; empty where there is no `/proc`.
    private static func processes(where include: (Int32, [ArraySlice<UInt8>]) -> Bool) -> [Int32] {
        guard let directory = opendir("/proc") else { return [] }
        defer { closedir(directory) }
        var found: [Int32] = []
        while let entry = readdir(directory) {
            let name = entryName(entry)
            guard let pid = Int32(name), let stat = readSmallFile("/proc/\(name)/stat") else { continue }
            // "pid (comm) state ppid pgrp session ...": comm may hold spaces and parentheses.
            guard let close = stat.lastIndex(of: UInt8(ascii: ")")) else { continue }
            if include(pid, stat[(close + 1)...].split(separator: UInt8(ascii: " "))) { found.append(pid) }
        }
        return found
    }

    private static func readSmallFile(_ path: String) -> [UInt8]? {
        guard let fd = try? openForReading(path) else { return nil }
        defer { closeIgnoringErrors(fd) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { (try? read(fd, into: $0)) ?? nil } ?? 0
        return count > 0 ? Array(buffer[0..<count]) : nil
    }

    /// Waits until every given process has exited (or `timeout` passed), using pidfds: event
    /// driven, no polling loop. Processes already gone are skipped. Returns false on timeout
    /// or when pidfds are unavailable.
    @discardableResult
    package static func waitUntilExited(_ pids: [Int32], timeout: Duration) -> Bool {
        var fds: [Int32] = []
        defer { for fd in fds { closeIgnoringErrors(fd) } }
        for pid in pids {
            let fd = harness_pidfd_open(pid)
            if fd >= 0 { fds.append(fd) } else if errno != ESRCH { return false }
        }
        let deadline = MonotonicClock.deadline(after: timeout)
        var pending = fds
        while !pending.isEmpty {
            let wait = MonotonicClock.milliseconds(until: deadline)
            if wait == 0 { return false }
            guard let events = try? poll(pending.map { ($0, PollEvents.readable) }, timeoutMilliseconds: wait) else { return false }
            pending = zip(pending, events).filter { $0.1.isEmpty }.map(\.0)
        }
        return true
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
