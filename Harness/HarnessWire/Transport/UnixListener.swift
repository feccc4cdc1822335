// The bridge's listening socket: one thread that waits in poll for the app's one connection or
// for `close()`, so a busy Dispatch pool cannot delay the handshake.

import HarnessSystem
import Synchronization

/// A listening Unix socket served by its own thread, which accepts exactly one connection.
///
/// It does not depend on Dispatch's thread pool, so a busy or blocked pool cannot
/// delay the handshake. Package-internal: used by the harness's `BridgeListener`.
package final class UnixListener: Sendable {
    private struct State {
        var closed = false
        var started = false
        var descriptorsClosed = false
    }

    private let listenFD: Int32
    private let loop: ReadinessLoop
    private let path: String
    private let state = Mutex(State())

    /// Listens at `path` (which must not exist).
    package init(path: String) throws(SystemError) {
        let fd = try UnixSocket.listen(path: path)
        do { loop = try ReadinessLoop() } catch {
            Posix.closeIgnoringErrors(fd)
            Posix.removeFile(path)
            throw error
        }
        self.listenFD = fd
        self.path = path
    }

    /// Starts the accept thread; `onAccept` gets the one accepted descriptor, or the error.
    /// The listening socket is closed and its file removed right after.
    package func acceptOne(threadName: String, _ onAccept: @escaping @Sendable (Result<Int32, SystemError>) -> Void) {
        let mayStart = state.withLock { state in
            guard !state.started, !state.closed else { return false }
            state.started = true
            return true
        }
        guard mayStart else { return }
        loop.start(name: threadName) { [self] loop in
            var result: Result<Int32, SystemError>?
            while result == nil {
                do throws(SystemError) {
                    let ready = try loop.wait([(listenFD, .readable)], timeoutMilliseconds: -1)
                    if state.withLock({ $0.closed }) { break }  // `close()` wins over a pending client
                    if !ready[0].isEmpty, let fd = try UnixSocket.accept(listenFD) { result = .success(fd) }
                } catch {
                    result = .failure(error)
                }
            }
            closeDescriptors()
            if let result { onAccept(result) }
        }
    }

    /// Stops listening; idempotent.
    package func close() {
        let (wasClosed, threadOwnsDescriptors) = state.withLock { state in
            defer { state.closed = true }
            return (state.closed, state.started)
        }
        guard !wasClosed else { return }
        if threadOwnsDescriptors {
            loop.wake()
        } else {
            closeDescriptors()
        }
    }

    private func closeDescriptors() {
        state.withLock { state in
            guard !state.descriptorsClosed else { return }
            state.descriptorsClosed = true
            Posix.closeIgnoringErrors(listenFD)
            Posix.removeFile(path)
        }
        loop.close()
    }
}
