#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few libc calls the test side of the bridge makes itself (sockets live in HarnessWire).
enum BridgePosix {
    /// The effective user id of this process.
    static func effectiveUserID() -> UInt32 { UInt32(geteuid()) }

    /// The owner and permission bits of `path` (not following symlinks), or nil with errno text.
    static func ownerAndMode(_ path: String) -> (owner: UInt32, mode: UInt32, isDirectory: Bool)? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return (UInt32(info.st_uid), UInt32(info.st_mode) & 0o7777, (UInt32(info.st_mode) & UInt32(S_IFMT)) == UInt32(S_IFDIR))
    }

    /// Creates a fresh directory from a `mkdtemp` template (mode 0700); throws with the errno text.
    static func makeTemporaryDirectory(template: String) throws(BridgeError) -> String {
        var bytes = Array(template.utf8CString)
        let result = bytes.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard result != nil else {
            throw .setupFailed("mkdtemp \(template): \(String(cString: strerror(errno)))")
        }
        return bytes.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
