#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The few file system calls the store makes, each retrying `EINTR` and throwing the `errno`.
///
/// The only place in TodoCore that talks to libc.
enum FileSystem {
    /// A failed system call: what was tried, on which path, and `errno`.
    struct CallError: Error {
        var operation: String
        var path: String
        var code: Int32
        var message: String { String(cString: strerror(code)) }
    }

    /// Writes `data` to a new file beside `destination`, flushes it to disk, and renames it over
    /// `destination`, then flushes the directory: readers see the old file or the new one, never half.
    static func atomicWrite(_ data: Data, to destination: String) throws(CallError) {
        let directory = (destination as NSString).deletingLastPathComponent
        let temporary = "\(directory)/.\((destination as NSString).lastPathComponent).\(getpid()).\(UInt32.random(in: 0 ... .max)).tmp"
        let fd = Int32(try call("open", temporary) { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) })
        let failure: CallError? = data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> CallError? in
            do throws(CallError) {
                var offset = 0
                while offset < buffer.count {
                    offset += try call("write", temporary) { write(fd, buffer.baseAddress! + offset, buffer.count - offset) }
                }
                try call("fsync", temporary) { fsync(fd) }
                return nil
            } catch {
                return error
            }
        }
        if let failure {
            close(fd)
            unlink(temporary)
            throw failure
        }
        if close(fd) != 0 {
            let code = errno
            unlink(temporary)
            throw CallError(operation: "close", path: temporary, code: code)
        }
        do {
            _ = try call("rename", destination) { rename(temporary, destination) }
        } catch {
            unlink(temporary)
            throw error
        }
        // Make the rename itself durable; a directory that cannot be opened for this is not an error.
        let directoryFD = open(directory, O_RDONLY | O_CLOEXEC)
        if directoryFD >= 0 {
            _ = fsync(directoryFD)
            close(directoryFD)
        }
    }

    /// Creates `path` and its parents (mode 0700 for new folders); an existing folder is fine.
    static func makeDirectory(_ path: String) throws(CallError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { return }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try makeDirectory(parent) }
        if mkdir(path, 0o700) != 0 {
            let code = errno
            if code == EEXIST { return }
            throw CallError(operation: "mkdir", path: path, code: code)
        }
    }

    /// Runs a system call returning -1 on failure, retrying while it fails with `EINTR`.
    @discardableResult
    static func call<T: BinaryInteger>(_ operation: String, _ path: String, _ body: () -> T) throws(CallError) -> Int {
        while true {
            let result = body()
            if result >= 0 { return Int(result) }
            let code = errno
            if code == EINTR { continue }
            throw CallError(operation: operation, path: path, code: code)
        }
    }
}
