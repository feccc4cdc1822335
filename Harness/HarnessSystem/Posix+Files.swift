// The few file-system calls Foundation does not make the way the harness needs: executable
// lookup by stat/access, owner checks of the bridge's socket folder, files' identities for the
// discovery of flows through symbolic links, mkdtemp, the process's environment, and the
// process's descriptor table for leak tests.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Posix {
    /// What a path is, for resolving an executable before spawning.
    package enum PathKind: Sendable { case missing, directory, executableFile, otherFile }

    /// Classifies `path` by `stat(2)` and `access(X_OK)`.
    package static func kind(ofPath path: String) -> PathKind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        if (info.st_mode & S_IFMT) == S_IFDIR { return .directory }
        return access(path, X_OK) == 0 ? .executableFile : .otherFile
    }

    /// The effective user id of this process.
    package static func effectiveUserID() -> UInt32 { UInt32(geteuid()) }

    /// The owner and permission bits of `path` (not following symlinks), or nil if it cannot be read.
    package static func ownerAndMode(_ path: String) -> (owner: UInt32, mode: UInt32, isDirectory: Bool)? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return (UInt32(info.st_uid), UInt32(info.st_mode) & 0o7777, (UInt32(info.st_mode) & UInt32(S_IFMT)) == UInt32(S_IFDIR))
    }

    /// What `stat(2)` says of a path, symbolic links followed: which file it is (device and
    /// inode, the same for every path that leads to it) and its type.
    package struct FileStatus: Sendable, Hashable {
        /// The device and inode: two paths with the same identity are the same file.
        package let identity: FileIdentity
        /// What kind of file it is.
        package let type: FileType
        package var isDirectory: Bool { type == .directory }
        package var isRegularFile: Bool { type == .regular }
    }

    /// The type of a file, from its mode.
    package enum FileType: Sendable, Hashable, CustomStringConvertible {
        case regular, directory, fifo, socket, characterDevice, blockDevice, symbolicLink, other

        init(mode: UInt32) {
            self = switch mode & UInt32(S_IFMT) {
            case UInt32(S_IFREG): .regular
            case UInt32(S_IFDIR): .directory
            case UInt32(S_IFIFO): .fifo
            case UInt32(S_IFSOCK): .socket
            case UInt32(S_IFCHR): .characterDevice
            case UInt32(S_IFBLK): .blockDevice
            case UInt32(S_IFLNK): .symbolicLink
            default: .other
            }
        }

        /// `a FIFO (named pipe)`, `a folder`...: for messages.
        package var description: String {
            switch self {
            case .regular: "a regular file"
            case .directory: "a folder"
            case .fifo: "a FIFO (named pipe)"
            case .socket: "a socket"
            case .characterDevice: "a character device"
            case .blockDevice: "a block device"
            case .symbolicLink: "a symbolic link"
            case .other: "a special file"
            }
        }
    }

    /// A file's device and inode.
    package struct FileIdentity: Sendable, Hashable {
        package let device: UInt64
        package let inode: UInt64
    }

    /// The status of the file `path` leads to (symbolic links followed), or nil when there is
    /// none (missing, a link to nothing, a loop of links, no permission).
    package static func fileStatus(ofPath path: String) -> FileStatus? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileStatus(identity: FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)),
                          type: FileType(mode: UInt32(info.st_mode)))
    }

    /// Which version of a file a path leads to: its identity, size, and the times of its last
    /// change of content and of status, to the nanosecond. Two reads that give the same version
    /// saw the same file (a file replaced by a rename has another identity; one rewritten in
    /// place, another modification time).
    package struct FileVersion: Sendable, Hashable {
        let identity: FileIdentity
        let size: Int64
        let modified: [Int64]
        let changed: [Int64]
    }

    /// The version of the file `path` leads to (symbolic links followed), or nil when there is none.
    package static func fileVersion(ofPath path: String) -> FileVersion? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if os(Linux)
        let (modified, changed) = (info.st_mtim, info.st_ctim)
        #else
        let (modified, changed) = (info.st_mtimespec, info.st_ctimespec)
        #endif
        return FileVersion(identity: FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)),
                           size: Int64(info.st_size),
                           modified: [Int64(modified.tv_sec), Int64(modified.tv_nsec)],
                           changed: [Int64(changed.tv_sec), Int64(changed.tv_nsec)])
    }

    /// One entry of a folder as ``directoryEntries(_:)`` lists it.
    package struct DirectoryEntry: Sendable, Hashable {
        /// The name's bytes, as the file system holds them (not necessarily UTF-8).
        package let name: [UInt8]
        /// What the name leads to (symbolic links followed), or nil when nothing (a link to
        /// nothing, no permission).
        package let status: FileStatus?

        /// The name as text, or nil when its bytes are not valid UTF-8.
        package var text: String? { String(validating: name, as: UTF8.self) }
    }

    /// The entries of the folder `path` (`opendir`, `readdir`, `fstatat`), without `.` and
    /// `..`, in no particular order: the names as bytes, so that a name that is not UTF-8 is
    /// listed too (Foundation's listing cannot name it).
    package static func directoryEntries(_ path: String) throws(SystemError) -> [DirectoryEntry] {
        guard let directory = opendir(path) else { throw SystemError(operation: "opendir \(path)", errno: errno) }
        defer { closedir(directory) }
        let descriptor = dirfd(directory)
        var entries: [DirectoryEntry] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { throw SystemError(operation: "readdir \(path)", errno: errno) }
                return entries
            }
            let namePointer = (UnsafeRawPointer(entry) + directoryNameOffset).assumingMemoryBound(to: CChar.self)
            let length = strlen(namePointer)
            let name = Array(UnsafeRawBufferPointer(start: namePointer, count: length))
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            var info = stat()
            let status = fstatat(descriptor, namePointer, &info, 0) == 0
                ? FileStatus(identity: FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)),
                             type: FileType(mode: UInt32(info.st_mode)))
                : nil
            entries.append(DirectoryEntry(name: name, status: status))
        }
    }

    /// Creates an empty file, or with `directory` an empty folder, named by raw bytes in the
    /// folder `directory` (a name that need not be UTF-8; tests make such names with it).
    package static func createEntry(in folder: String, named name: [UInt8], directory: Bool = false) throws(SystemError) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemError(operation: "open \(folder)", errno: errno) }
        defer { closeIgnoringErrors(descriptor) }
        let cName = name.map { CChar(bitPattern: $0) } + [0]
        let result = cName.withUnsafeBufferPointer { pointer -> Int32 in
            if directory { return mkdirat(descriptor, pointer.baseAddress!, 0o755) }
            let file = openat(descriptor, pointer.baseAddress!, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if file >= 0 { closeIgnoringErrors(file) }
            return file >= 0 ? 0 : -1
        }
        guard result == 0 else { throw SystemError(operation: "create an entry in \(folder)", errno: errno) }
    }

    /// Whether `path` itself is a symbolic link (`lstat(2)`).
    package static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        return (UInt32(info.st_mode) & UInt32(S_IFMT)) == UInt32(S_IFLNK)
    }

    /// Sets a variable of this process's environment (`setenv(3)`), seen by
    /// `ProcessInfo.processInfo.environment` and inherited by the programs it then starts.
    /// `setenv` is not safe while another thread reads the environment: call it first thing in
    /// a command, before anything else runs.
    package static func setEnvironmentVariable(_ name: String, to value: String) throws(SystemError) {
        guard setenv(name, value, 1) == 0 else { throw SystemError(operation: "setenv \(name)", errno: errno) }
    }

    /// Creates a fresh directory (mode 0700) from a `mkdtemp` template ending in `XXXXXX`.
    package static func makeTemporaryDirectory(template: String) throws(SystemError) -> String {
        var bytes = Array(template.utf8CString)
        let result = bytes.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard result != nil else { throw SystemError(operation: "mkdtemp \(template)", errno: errno) }
        return bytes.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// The canonical absolute path of `path` (`realpath(3)`): every symbolic link, `.` and `..`
    /// resolved. Throws when a component is missing or cannot be searched.
    package static func realPath(_ path: String) throws(SystemError) -> String {
        guard let pointer = realpath(path, nil) else { throw SystemError(operation: "realpath \(path)", errno: errno) }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// Removes a file, ignoring errors (a socket path left by a listener).
    package static func removeFile(_ path: String) { _ = unlink(path) }

    /// The process's current working directory.
    package static func currentDirectory() -> String? {
        guard let pointer = getcwd(nil, 0) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    // MARK: - The descriptor table

    /// The name of a directory entry from `readdir`, read in place up to its NUL: a record can
    /// end before the 256 bytes `d_name` is declared with, so copying the field (as
    /// `entry.pointee.d_name` does) reads past the directory buffer.
    static func entryName(_ entry: UnsafeMutablePointer<dirent>) -> String {
        String(cString: (UnsafeRawPointer(entry) + directoryNameOffset).assumingMemoryBound(to: CChar.self))
    }

    private static let directoryNameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!

    /// The process's open descriptor numbers (from `/proc/self/fd` or `/dev/fd`).
    package static func openDescriptors() -> [Int32] {
        let directory = opendir("/proc/self/fd") ?? opendir("/dev/fd")
        guard let directory else { return [] }
        defer { closedir(directory) }
        let own = dirfd(directory)
        var result: [Int32] = []
        while let entry = readdir(directory) {
            let name = entryName(entry)
            if let fd = Int32(name), fd != own { result.append(fd) }
        }
        return result.sorted()
    }

    /// The number of open descriptors of this process, or nil when the table cannot be read.
    package static func openDescriptorCount() -> Int? {
        let descriptors = openDescriptors()
        return descriptors.isEmpty ? nil : descriptors.count
    }

    /// What a descriptor refers to (`readlink /proc/self/fd/N`: a path, `pipe:[inode]`...).
    package static func descriptorTarget(_ fd: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
