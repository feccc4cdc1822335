// The one readiness loop of the package: a thread of its own that waits in poll on its
// descriptors and on a wake-up pipe other threads write to. The session's reader, the piped
// session's I/O thread, the bridge connection, the bridge listener and the stub server each
// run one; what they do with ready descriptors stays theirs.

import Foundation
import Synchronization

/// A thread waiting in `poll` on some descriptors and on a wake-up pipe.
///
/// Other threads call ``wake()`` after changing what the loop should do (a command queued, a
/// write queued, a stop requested); the loop's next ``wait(_:timeoutMilliseconds:)`` returns at
/// once and has already drained the pipe. The pipe is created with the loop and closed by
/// ``close()`` (or deinit); a wake after that does nothing, so it never writes to a descriptor
/// number that was reused.
///
/// ```swift
/// let loop = try ReadinessLoop()
/// loop.start(name: "reader") { loop in
///     while !stopped {
///         let events = try loop.wait([(fd, .readable)], timeoutMilliseconds: -1)
///         if !events[0].isEmpty { readAvailable() }
///     }
/// }
/// ```
package final class ReadinessLoop: Sendable {
    private struct State {
        var isClosed = false
        var thread: ThreadIdentity?
    }

    private let wakeUpRead: Int32
    private let wakeUpWrite: Int32
    private let state = Mutex(State())

    /// Creates the wake-up pipe (non-blocking, close-on-exec).
    package init() throws(SystemError) {
        let pipe = try Posix.makeWakeUpPipe()
        wakeUpRead = pipe.read
        wakeUpWrite = pipe.write
    }

    deinit { close() }

    /// The wake-up pipe's two descriptors, for leak tests that look for them after `close()`.
    package var wakeUpDescriptors: [Int32] { [wakeUpRead, wakeUpWrite] }

    /// Runs `body` on a new thread named `name`; `body` is the loop.
    package func start(name: String, stackSize: Int? = nil, _ body: @escaping @Sendable (ReadinessLoop) -> Void) {
        let thread = Thread { [self] in
            state.withLock { $0.thread = .current }
            body(self)
        }
        thread.name = name
        if let stackSize { thread.stackSize = stackSize }
        thread.start()
    }

    /// Whether the caller runs on the loop's thread.
    package var isLoopThread: Bool { state.withLock { $0.thread?.isCurrent ?? false } }

    /// Makes the loop's current or next wait return at once. Safe from any thread, also after
    /// ``close()`` (then it does nothing).
    package func wake() {
        state.withLock { state in
            if !state.isClosed { Posix.wake(wakeUpWrite) }
        }
    }

    /// Polls `descriptors` in place and the wake-up pipe; drains the pipe when it was written to.
    /// Returns whether the loop was woken. `timeoutMilliseconds` of -1 waits without limit.
    @discardableResult
    package func wait(_ descriptors: inout [Posix.PollDescriptor], timeoutMilliseconds: Int32) throws(SystemError) -> Bool {
        descriptors.append(Posix.pollDescriptor(fd: wakeUpRead, events: .readable))
        defer { descriptors.removeLast() }
        try Posix.poll(&descriptors, timeoutMilliseconds: timeoutMilliseconds)
        let woken = !descriptors[descriptors.count - 1].returnedEvents.isEmpty
        if woken { Posix.drain(wakeUpRead) }
        return woken
    }

    /// Polls the given descriptors and the wake-up pipe; returns the events of each given
    /// descriptor, in order (all empty when only woken, or on timeout).
    package func wait(
        _ requests: [(fd: Int32, events: Posix.PollEvents)], timeoutMilliseconds: Int32
    ) throws(SystemError) -> [Posix.PollEvents] {
        var descriptors = requests.map { Posix.pollDescriptor(fd: $0.fd, events: $0.events) }
        try wait(&descriptors, timeoutMilliseconds: timeoutMilliseconds)
        return descriptors.map(\.returnedEvents)
    }

    /// Closes the wake-up pipe once the loop's thread no longer waits on it; idempotent.
    package func close() {
        state.withLock { state in
            guard !state.isClosed else { return }
            state.isClosed = true
            Posix.closeIgnoringErrors(wakeUpRead)
            Posix.closeIgnoringErrors(wakeUpWrite)
        }
    }
}
