// Watching folders for changed files (inotify on Linux): `harness run --watch`.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Posix {
    /// Whether this system can watch folders (``watchFolders(_:)``): Linux's inotify.
    package static var canWatchFolders: Bool {
        #if os(Linux)
        true
        #else
        false
        #endif
    }

    /// A non-blocking, close-on-exec inotify descriptor watching each of `folders` for files
    /// written and closed, created, moved in or out, deleted, or whose attributes changed
    /// (`touch`), and the folder of each watch number. Read what happened with
    /// ``readFolderChanges(_:)``; close it when done. Throws on a system without inotify.
    package static func watchFolders(_ folders: [String]) throws(SystemError) -> (fd: Int32, folders: [Int32: String]) {
        #if os(Linux)
        let fd = try retrying("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
        let mask = UInt32(IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_ATTRIB)
        var watched: [Int32: String] = [:]
        for folder in folders {
            do {
                watched[try retrying("inotify_add_watch \(folder)") { inotify_add_watch(fd, folder, mask) }] = folder
            } catch {
                closeIgnoringErrors(fd)
                throw error
            }
        }
        return (fd, watched)
        #else
        throw SystemError(operation: "watching folders (inotify, Linux only)", errno: ENOSYS)
        #endif
    }

    /// The names of the files a ``watchFolders(_:)`` descriptor reported since the last read
    /// (relative to their folder; the folder's watch number beside each); empty when nothing is
    /// waiting.
    package static func readFolderChanges(_ fd: Int32) -> [(watch: Int32, name: String)] {
        var changes: [(watch: Int32, name: String)] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while let count = try? read(fd, into: &buffer), count > 0 {
            // struct inotify_event: int wd; uint32_t mask, cookie, len; char name[len].
            var offset = 0
            while offset + 16 <= count {
                let field = { (at: Int) -> UInt32 in
                    buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + at, as: UInt32.self) }
                }
                let length = Int(field(12))
                let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                changes.append((Int32(bitPattern: field(0)), String(decoding: nameBytes, as: UTF8.self)))
                offset += 16 + length
            }
        }
        return changes
    }
}
