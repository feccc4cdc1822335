// The baseline of launch to first byte: the same program started on a bare pseudo-terminal
// with posix_openpt(3) and posix_spawn(3) straight from libc (nothing from the harness), in a
// session of its own with the pty as its controlling terminal, then poll(2) + read(2) on the
// master until its text has arrived.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One launch of a program on a raw pty, timed until its output contains a marker.
enum RawPseudoTerminalLaunch {
    /// Starts `arguments[0]` (an absolute path) with `environment` on a fresh pty and returns
    /// the nanoseconds from the first call until `marker` was read from the master; the program
    /// is then reaped (not timed).
    static func timeToText(
        _ marker: String, arguments: [String], environment: [String], timeoutMilliseconds: Int32
    ) throws(ScaleBenchmarkError) -> UInt64 {
        let clock = ContinuousClock()
        let start = clock.now
        let master = PseudoTerminalCalls.shared.openMaster(O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0 else { throw .system("posix_openpt", errno: errno) }
        defer { close(master) }
        guard PseudoTerminalCalls.shared.grant(master) == 0 else { throw .system("grantpt", errno: errno) }
        guard PseudoTerminalCalls.shared.unlock(master) == 0 else { throw .system("unlockpt", errno: errno) }
        var name = [CChar](repeating: 0, count: 128)
        guard PseudoTerminalCalls.shared.slaveName(master, &name, name.count) == 0 else {
            throw .system("ptsname_r", errno: errno)
        }

        let pid = try spawn(arguments: arguments, environment: environment, terminal: name)
        defer {
            // A program that did not print its text in time is killed; either way it is reaped.
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }

        let wanted = Array(marker.utf8)
        var seen: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        while !seen.contains(wanted) {
            let ready = poll(&descriptor, 1, timeoutMilliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready == 1 else {
                throw .unexpected("raw pty: no \(marker.debugDescription) within \(timeoutMilliseconds) ms, read so far: \(String(decoding: seen, as: UTF8.self).debugDescription)")
            }
            let count = read(master, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                throw .unexpected("raw pty: the program ended before printing \(marker.debugDescription), read: \(String(decoding: seen, as: UTF8.self).debugDescription)")
            }
            seen += buffer[0..<count]
        }
        return (clock.now - start).nanoseconds
    }

    /// glibc's `POSIX_SPAWN_SETSID` (a GNU extension the Glibc module does not import).
    private static let spawnSetSessionFlag: Int16 = 0x80

    /// posix_spawn in a new session, the pty slave opened by path as descriptor 0 (which makes it
    /// the controlling terminal) and duplicated to 1 and 2.
    private static func spawn(arguments: [String], environment: [String], terminal: [CChar]) throws(ScaleBenchmarkError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        guard posix_spawn_file_actions_init(&actions) == 0 else { throw .system("posix_spawn_file_actions_init", errno: errno) }
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        guard posix_spawnattr_init(&attributes) == 0 else { throw .system("posix_spawnattr_init", errno: errno) }
        defer { posix_spawnattr_destroy(&attributes) }

        var result = posix_spawnattr_setflags(&attributes, spawnSetSessionFlag)
        if result == 0 { result = posix_spawn_file_actions_addopen(&actions, 0, terminal, O_RDWR, 0) }
        if result == 0 { result = posix_spawn_file_actions_adddup2(&actions, 0, 1) }
        if result == 0 { result = posix_spawn_file_actions_adddup2(&actions, 0, 2) }
        guard result == 0 else { throw .system("posix_spawn set-up", errno: result) }

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw .system("posix_spawn \(arguments[0])", errno: spawned) }
        return pid
    }
}
