import Foundation

/// A listening Unix socket served by its own thread, which accepts exactly one connection.
///
/// It does not depend on Dispatch's thread pool, so a busy or blocked pool cannot
/// delay the handshake. Package-internal: used by the harness's `BridgeListener`.
package final class UnixListener: @unchecked Sendable {
    private let listenFD: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let path: String
    private let lock = NSLock()
    private var closed = false
    private var started = false
    private var descriptorsClosed = false

    /// Listens at `path` (which must not exist).
    package init(path: String) throws(SocketError) {
        let fd = try UnixSocket.listen(path: path)
        let pipe: (read: Int32, write: Int32)
        do { pipe = try WirePosix.makePipe() } catch {
            WirePosix.closeDescriptor(fd)
            WirePosix.removeFile(path)
            throw error
        }
        self.listenFD = fd
        self.wakeRead = pipe.read
        self.wakeWrite = pipe.write
        self.path = path
    }

    /// Starts the accept thread; `onAccept` gets the one accepted descriptor, or the error.
    /// The listening socket is closed and its file removed right after.
    package func acceptOne(threadName: String, _ onAccept: @escaping @Sendable (Result<Int32, SocketError>) -> Void) {
        lock.lock()
        guard !started, !closed else { lock.unlock(); return }
        started = true
        lock.unlock()
        let thread = Thread { [self] in
            var result: Result<Int32, SocketError>?
            while result == nil {
                do throws(SocketError) {
                    let ready = try WirePosix.waitForEvents(
                        [(listenFD, WirePosix.pollIn), (wakeRead, WirePosix.pollIn)], timeoutMilliseconds: -1)
                    if ready[1] != 0 { break }  // closed
                    if ready[0] != 0 {
                        do throws(SocketError) { result = .success(try WirePosix.acceptConnection(listenFD)) } catch {
                            if error.errno != EAGAIN && error.errno != EWOULDBLOCK { result = .failure(error) }
                        }
                    }
                } catch {
                    result = .failure(error)
                }
            }
            closeDescriptors()
            if let result { onAccept(result) }
        }
        thread.name = threadName
        thread.start()
    }

    /// Stops listening; idempotent.
    package func close() {
        lock.lock()
        let wasClosed = closed
        closed = true
        let threadOwnsDescriptors = started
        lock.unlock()
        guard !wasClosed else { return }
        if threadOwnsDescriptors {
            WirePosix.wake(wakeWrite)
        } else {
            closeDescriptors()
        }
    }

    private func closeDescriptors() {
        lock.lock()
        defer { lock.unlock() }
        guard !descriptorsClosed else { return }
        descriptorsClosed = true
        WirePosix.closeDescriptor(listenFD)
        WirePosix.removeFile(path)
        // The wake pipe stays open until deinit so a late `close()` never writes to a reused descriptor.
    }

    deinit {
        WirePosix.closeDescriptor(wakeRead)
        WirePosix.closeDescriptor(wakeWrite)
    }
}
