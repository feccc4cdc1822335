// What a path is without following it (lstat) and where it really leads (realpath): the checks
// that keep the harness's writes and copies inside the folders they belong to.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Posix {
    /// What a directory entry is, by `lstat(2)` (a symbolic link is not followed).
    package enum EntryKind: Sendable, Equatable {
        case regularFile, directory, symbolicLink
        /// A FIFO, socket or device.
        case other
    }

    /// What `path` itself is, or nil when there is nothing there (or it cannot be read).
    package static func entryKind(ofPath path: String) -> EntryKind? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        switch UInt32(info.st_mode) & UInt32(S_IFMT) {
        case UInt32(S_IFREG): return .regularFile
        case UInt32(S_IFDIR): return .directory
        case UInt32(S_IFLNK): return .symbolicLink
        default: return .other
        }
    }

    /// `path` absolute, with every symbolic link, `.` and `..` resolved (`realpath(3)`); nil
    /// when it does not exist or cannot be resolved.
    package static func resolvedPath(_ path: String) -> String? {
        try? realPath(path)
    }

    /// Whether the resolved path `path` is the resolved folder `folder` or lies below it
    /// (compared by whole components: `/run2` is not inside `/run`).
    package static func isPath(_ path: String, inside folder: String) -> Bool {
        folder == "/" ? path.hasPrefix("/") : path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }
}
