// Reading, writing, closing and creating descriptors (pipes, files), under the policy of
// Posix.swift: EINTR retried, would-block returned as nil, close-on-exec from creation.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CHarnessSystem

extension Posix {
    // MARK: - Reading and writing

    /// `read(2)`; returns the number of bytes (0 at end of file), nil when it would block.
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int? {
        try retryingUnlessWouldBlock("read") { libcRead(fd, buffer.baseAddress, buffer.count) }
    }

    /// ``read(_:into:)`` into the whole of `buffer`.
    package static func read(_ fd: Int32, into buffer: inout [UInt8]) throws(SystemError) -> Int? {
        let result: Result<Int?, SystemError> = buffer.withUnsafeMutableBytes { raw in
            do throws(SystemError) { return .success(try read(fd, into: raw)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// `write(2)`; returns the number of bytes written, nil when it would block.
    package static func write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) throws(SystemError) -> Int? {
        try retryingUnlessWouldBlock("write") { libcWrite(fd, buffer.baseAddress, buffer.count) }
    }

    /// `write(2)` of `bytes[offset...]`; returns the number of bytes written, nil when it would block.
    package static func write(_ fd: Int32, bytes: [UInt8], from offset: Int = 0) throws(SystemError) -> Int? {
        let result: Result<Int?, SystemError> = bytes.withUnsafeBytes { buffer in
            do throws(SystemError) {
                return .success(try write(fd, UnsafeRawBufferPointer(rebasing: buffer[offset...])))
            } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// `write(2)` that never raises SIGPIPE: a reader that is gone is `EPIPE`, thrown.
    /// Returns the number of bytes written, nil when it would block.
    package static func writeWithoutSignal(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) throws(SystemError) -> Int? {
        try retryingUnlessWouldBlock("write") {
            harness_write_without_sigpipe(fd, buffer.baseAddress, UInt(buffer.count))
        }
    }

    /// Writes one byte to a wake-up pipe, ignoring a full pipe (it already means "wake up")
    /// and a closed one. It never raises SIGPIPE: the harness runs inside the user's test
    /// process, and a read end that something else closed by mistake must not kill it.
    package static func wake(_ fd: Int32) {
        var byte: UInt8 = 1
        _ = try? withUnsafeBytes(of: &byte) { buffer throws(SystemError) in try writeWithoutSignal(fd, buffer) }
    }

    /// Reads and discards everything a non-blocking wake-up pipe holds.
    package static func drain(_ fd: Int32) {
        var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        let size = MemoryLayout.size(ofValue: buffer)
        while true {
            let count = try? retryingUnlessWouldBlock("read") { libcRead(fd, &buffer, size) }
            guard let count, count == size else { return }
        }
    }

    // MARK: - Closing

    /// `close(2)`. EINTR is not retried: on Linux the descriptor is released anyway, and a
    /// retry could close a descriptor another thread has just been given.
    package static func close(_ fd: Int32) throws(SystemError) {
        if libcClose(fd) == -1 {
            let saved = errno
            if saved != EINTR { throw SystemError(operation: "close", errno: saved) }
        }
    }

    /// `close(2)` for teardown paths, where a failure has no one to be reported to.
    package static func closeIgnoringErrors(_ fd: Int32) {
        _ = libcClose(fd)
    }

    // MARK: - Creating

    /// A pipe with both ends close-on-exec, non-blocking when asked: (read end, write end).
    package static func makePipe(nonBlocking: Bool = false) throws(SystemError) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        try retrying("pipe") { harness_pipe(&fds, nonBlocking ? 1 : 0) }
        return (fds[0], fds[1])
    }

    /// A non-blocking, close-on-exec pipe to wake a thread blocked in ``poll(_:timeout:)``:
    /// (read end, write end).
    package static func makeWakeUpPipe() throws(SystemError) -> (read: Int32, write: Int32) {
        try makePipe(nonBlocking: true)
    }

    /// Opens `path` read-only and close-on-exec.
    package static func openForReading(_ path: String) throws(SystemError) -> Int32 {
        try retrying("open \(path)") { open(path, O_RDONLY | O_CLOEXEC) }
    }

    /// Creates (or truncates) `path` for writing, mode 0600, close-on-exec.
    package static func createForWriting(_ path: String) throws(SystemError) -> Int32 {
        try retrying("open \(path)") { open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600) }
    }

    /// Opens (creating it, mode 0644) `path` for appending, close-on-exec: each `write(2)` of a
    /// whole record lands at the end, whole, also when several processes append.
    package static func openForAppending(_ path: String) throws(SystemError) -> Int32 {
        try retrying("open \(path)") { open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644) }
    }

    // MARK: - Flags

    /// Makes `fd` non-blocking.
    package static func setNonBlocking(_ fd: Int32) throws(SystemError) {
        let flags = try retrying("fcntl(F_GETFL)") { fcntl(fd, F_GETFL) }
        try retrying("fcntl(F_SETFL)") { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    }

    /// Whether `fd` is non-blocking (`O_NONBLOCK`).
    package static func isNonBlocking(_ fd: Int32) throws(SystemError) -> Bool {
        try retrying("fcntl(F_GETFL)") { fcntl(fd, F_GETFL) } & O_NONBLOCK != 0
    }

    /// Whether `fd` is close-on-exec (`FD_CLOEXEC`): what the tests check on every kind of
    /// descriptor this module creates.
    package static func isCloseOnExec(_ fd: Int32) throws(SystemError) -> Bool {
        try retrying("fcntl(F_GETFD)") { fcntl(fd, F_GETFD) } & FD_CLOEXEC != 0
    }
}
