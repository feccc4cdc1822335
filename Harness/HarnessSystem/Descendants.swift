// The descendants of the programs the harness spawns, once they are no longer in the program's
// process group (a daemon that called setsid) and their parent is gone: with this process a
// child subreaper (Linux `PR_SET_CHILD_SUBREAPER`), the kernel reparents them to it instead of
// to init, so the harness can end them at teardown and must reap them.
//
// Attribution: a program spawned tied to the harness (`Posix.spawnInPseudoTerminal` /
// `spawnWithPipes` with `tiedToHarness`) gets `HARNESS_SESSION=<pid>.<n>` in its environment,
// which its descendants inherit; a child of this process that the harness did not spawn and
// whose environment holds a session's marker belongs to that session.
//
// Reaping: a child the harness spawned is reaped by whoever watches it (the event loop's pidfd),
// by its pid; an adopted one is reaped here, by its pid too, never with `waitpid(-1)`, so no
// status of a spawned child is taken. The spawned ones are recorded before any reaping scan can
// see them (a scan waits for spawns in flight).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CHarnessSystem

/// The children of this process that the harness did not spawn (reparented to it as a child
/// subreaper), found by the marker of the session they descend from, ended and reaped.
package enum Descendants {
    /// The variable that carries a session's marker in its program's environment.
    package static let markerVariable = "HARNESS_SESSION"

    private struct State {
        var isSubreaper = false
        var nextMarker = 1
        var spawnsInFlight = 0
        /// Children spawned by the harness and not reaped yet.
        var spawned: Set<Int32> = []
        /// The marker of each program spawned with one, until its teardown forgets it.
        var markers: [Int32: String] = [:]
    }

    private static let state = Locked(State())

    // MARK: - Subreaper

    /// Makes this process a child subreaper (Linux); returns whether it is one. Programs spawned
    /// tied to the harness afterwards carry a marker, and their teardown ends their adopted
    /// descendants. Only for a process that reaps nothing with `waitpid(-1)` (the `harness`
    /// command, not a test process whose tests wait for their own children).
    @discardableResult
    package static func becomeSubreaper() -> Bool {
        guard harness_become_child_subreaper() == 0 else { return false }
        state.withLock { $0.isSubreaper = true }
        return true
    }

    /// Whether ``becomeSubreaper()`` succeeded.
    package static var isSubreaper: Bool { state.withLock { $0.isSubreaper } }

    /// A new session marker (`<pid>.<n>`), or nil when this process is not a subreaper.
    static func newMarker() -> String? {
        state.withLock { state -> String? in
            guard state.isSubreaper else { return nil }
            defer { state.nextMarker += 1 }
            return "\(getpid()).\(state.nextMarker)"
        }
    }

    // MARK: - Spawned children

    /// Runs `spawn` and records the pid it returns as a spawned child (with its `marker`).
    static func recordingSpawn(marker: String?, _ spawn: () throws(SystemError) -> Int32) throws(SystemError) -> Int32 {
        state.withLock { $0.spawnsInFlight += 1 }
        let pid: Int32
        do {
            pid = try spawn()
        } catch {
            state.withLock { $0.spawnsInFlight -= 1 }
            throw error
        }
        state.withLock { state in
            state.spawnsInFlight -= 1
            state.spawned.insert(pid)
            if let marker { state.markers[pid] = marker }
        }
        return pid
    }

    /// `pid` was reaped (its status taken, or lost to ECHILD).
    static func reaped(_ pid: Int32) {
        state.withLock { _ = $0.spawned.remove(pid) }
    }

    /// The marker of the program `pid` was spawned with, and forgets it (its teardown asks once).
    package static func takeMarker(of pid: Int32) -> String? {
        state.withLock { $0.markers.removeValue(forKey: pid) }
    }

    // MARK: - Adopted children

    /// The living children of this process that the harness did not spawn and whose environment
    /// holds `HARNESS_SESSION=marker` (nil: any marker, or none). From `/proc` (Linux; empty
    /// elsewhere). Such a child cannot be reaped by anyone else, so its pid names it until it
    /// is reaped here.
    package static func adopted(marker: String?) -> [Int32] {
        let me = getpid()
        let spawned = state.withLock { $0.spawned }
        return children(of: me, zombies: false).filter { pid in
            guard !spawned.contains(pid) else { return false }
            guard let marker else { return true }
            return environmentHolds(pid, "\(markerVariable)=\(marker)")
        }
    }

    /// Reaps the children that exited and that the harness did not spawn (adopted orphans,
    /// members of a program's group that outlived its leader); returns how many. Waits for no
    /// one, and does nothing while a spawn is in flight (its child is not recorded yet).
    @discardableResult
    package static func reapAdoptedZombies() -> Int {
        state.withLock { state -> Int in
            guard state.isSubreaper, state.spawnsInFlight == 0 else { return 0 }
            var count = 0
            for pid in children(of: getpid(), zombies: true) where !state.spawned.contains(pid) {
                var status: Int32 = 0
                while waitpid(pid, &status, WNOHANG) < 0 && errno == EINTR {}
                count += 1
            }
            return count
        }
    }

    /// The children of `parent` from `/proc/*/stat`: the living ones, or (`zombies`) the exited
    /// ones not reaped yet.
    private static func children(of parent: Int32, zombies: Bool) -> [Int32] {
        #if os(Linux)
        guard let directory = opendir("/proc") else { return [] }
        defer { closedir(directory) }
        var found: [Int32] = []
        while let entry = readdir(directory) {
            let name = Posix.entryName(entry)
            guard let pid = Int32(name), let stat = Posix.readProcessFile("/proc/\(name)/stat", limit: 1024) else { continue }
            // "pid (comm) state ppid ...": comm may hold spaces and parentheses.
            guard let close = stat.lastIndex(of: UInt8(ascii: ")")) else { continue }
            let fields = stat[(close + 1)...].split(separator: UInt8(ascii: " "), maxSplits: 3)
            guard fields.count > 2, let state = fields[0].first,
                  let ppid = Int32(String(decoding: fields[1], as: UTF8.self)), ppid == parent else { continue }
            let isZombie = state == UInt8(ascii: "Z")
            if isZombie == zombies { found.append(pid) }
        }
        return found
        #else
        return []
        #endif
    }

    /// Whether `/proc/PID/environ` holds the entry `entry` (`NAME=value`).
    private static func environmentHolds(_ pid: Int32, _ entry: String) -> Bool {
        guard let environ = Posix.readProcessFile("/proc/\(pid)/environ", limit: 1 << 20) else { return false }
        let wanted = Array(entry.utf8)
        return environ.split(separator: 0).contains { $0.elementsEqual(wanted) }
    }
}

extension Posix {
    /// The bytes of a small `/proc` file (at most `limit`), or nil when it cannot be read.
    static func readProcessFile(_ path: String, limit: Int) -> [UInt8]? {
        guard let fd = try? openForReading(path) else { return nil }
        defer { closeIgnoringErrors(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < limit {
            guard let count = try? read(fd, into: &buffer), count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return bytes.isEmpty ? nil : bytes
    }
}
