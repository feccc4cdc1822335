// The bridge's listening socket, watched by the process's event loop until the app's one
// connection arrives or `close()` is called: no thread of its own, and no wait for a turn on
// Dispatch's pool, so a busy pool cannot delay the handshake.

import HarnessSystem

/// A listening Unix socket that accepts exactly one connection, on the process's ``EventLoop``.
///
/// Package-internal: used by the harness's `BridgeListener`.
package final class UnixListener: Sendable {
    private struct State {
        var started = false
        var closed = false
        /// The listening socket was closed (or handed to the loop to close) and its file removed.
        var released = false
        var watch: EventLoop.Watch?
        /// What gets the connection (kept for ``acceptWaitingConnection()``).
        var onAccept: (@Sendable (Result<Int32, SystemError>) -> Void)?
    }

    private let listenFD: Int32
    private let path: String
    private let loop: EventLoop
    private let state = Locked(State())

    /// Listens at `path` (which must not exist).
    package init(path: String, loop: EventLoop = .shared) throws(SystemError) {
        listenFD = try UnixSocket.listen(path: path)
        self.path = path
        self.loop = loop
    }

    deinit {
        // Reached only when never accepting (a watch keeps the listener alive until released).
        release()
    }

    /// Watches for the one connection; `onAccept` gets its descriptor, or the error, on the
    /// loop. The listening socket is closed and its file removed right before. Once only; not
    /// after ``close()``, which wins over a connection not yet accepted (`onAccept` is then
    /// never called).
    package func acceptOne(_ onAccept: @escaping @Sendable (Result<Int32, SystemError>) -> Void) {
        state.withLock { state in
            guard !state.started, !state.closed else { return }
            state.started = true
            state.onAccept = onAccept
            // Under the lock: a close after this finds the watch to remove.
            state.watch = loop.watch(listenFD, for: .readable) { [self] _ in acceptReady(onAccept) }
        }
    }

    /// Stops listening; idempotent.
    package func close() {
        state.withLock { $0.closed = true }
        release()
    }

    /// On the loop: accepts the connection now if one is waiting, without waiting for the loop
    /// to report the socket readable, and says whether the one connection has come (now or
    /// before; false when none is waiting). So a caller on the loop that knows the client
    /// connected before some event it sees (its first output) finds the connection whatever
    /// order the loop reports the two in.
    package func acceptWaitingConnection() -> Bool {
        let onAccept = state.withLock { state in state.started && !state.released && !state.closed ? state.onAccept : nil }
        if let onAccept { acceptReady(onAccept) }
        return state.withLock { $0.released && !$0.closed }
    }

    /// On the loop: the socket is readable (or failed).
    private func acceptReady(_ onAccept: @Sendable (Result<Int32, SystemError>) -> Void) {
        guard !state.withLock({ $0.closed }) else { return }  // `close()` wins
        let result: Result<Int32, SystemError>
        do {
            guard let fd = try UnixSocket.accept(listenFD) else { return }  // none waiting, or the client gave up
            result = .success(fd)
        } catch {
            result = .failure(error)
        }
        guard release() else {
            if case .success(let fd) = result { UnixSocket.close(fd) }  // `close()` won meanwhile
            return
        }
        onAccept(result)
    }

    /// Removes the socket's file and closes it (through the loop when it is watched), once;
    /// returns whether this call did.
    @discardableResult
    private func release() -> Bool {
        state.withLock { state in
            guard !state.released else { return false }
            state.released = true
            state.onAccept = nil
            // Now, not on the loop: the path may be reused once the caller removed its directory.
            Posix.removeFile(path)
            if let watch = state.watch {
                loop.unwatch(watch, closing: true)
            } else {
                Posix.closeIgnoringErrors(listenFD)
            }
            state.watch = nil
            return true
        }
    }
}
