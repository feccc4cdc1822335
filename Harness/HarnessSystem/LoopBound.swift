// State that belongs to one event loop's thread, as a type (swift-nio's `NIOLoopBound`): the
// value is reachable only through accessors that check, on every access, that the caller runs
// on that loop. Other threads reach it by handing the loop a job (`EventLoop.execute`,
// `EventLoop.submit`).

import CHarnessSystem

/// Which thread runs an ``EventLoop``, and what happens when code touches the loop's state from
/// another thread: one per loop, the token its thread marks itself with (a thread-local, so
/// asking costs no lock).
package final class LoopToken: Sendable {
    /// The loop's name, for the report of a wrong-thread access.
    let name: String
    /// Called with a description when loop-bound state is touched off the loop's thread. By
    /// default it stops the process; tests of the check pass their own.
    let offLoopAccess: @Sendable (String) -> Void

    init(name: String, offLoopAccess: (@Sendable (String) -> Void)?) {
        self.name = name
        self.offLoopAccess = offLoopAccess ?? { preconditionFailure($0) }
    }

    /// Whether the caller runs on this loop's thread.
    @inline(__always)
    var isCurrent: Bool { harness_current_loop() == UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()) }

    /// Marks the calling thread as this loop's (once, by the loop's thread).
    func markCurrentThread() { harness_set_current_loop(UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())) }

    /// Reports the access when the caller is not on this loop's thread.
    @inline(__always)
    func check(_ file: StaticString, _ line: UInt) {
        if !isCurrent { offLoopAccess("\(file):\(line): state of the event loop \(name) touched off its thread") }
    }
}

/// A value that only the thread of one ``EventLoop`` reads and writes: every access checks the
/// caller's thread (a thread-local compare) and reports a wrong one (by default the process
/// stops). An owner (a session, a server's connections, the loop itself) keeps its mutable
/// state in one; tasks reach it by handing the loop a job.
///
/// Made on any thread (an owner is built by the task that starts it); reached only on the loop.
///
/// ```swift
/// let connections = LoopBound([UInt64: Connection](), on: loop)
/// loop.execute { connections.value[id] = connection }
/// ```
package final class LoopBound<Value>: @unchecked Sendable {
    // @unchecked: `storage` is reached only through `value` and `withValue`, which check first
    // that the caller runs on the loop's thread, so one thread at a time ever touches it (the
    // value handed to `init` reaches the loop through the job that hands it the owner).
    private let token: LoopToken
    private var storage: Value

    /// Binds `value` to `loop`.
    package init(_ value: Value, on loop: EventLoop) {
        token = loop.token
        storage = value
    }

    /// Binds `value` to the loop of `token` (the loop's own state, made before the loop is).
    init(_ value: Value, token: LoopToken) {
        self.token = token
        storage = value
    }

    /// The value; only on the loop.
    package var value: Value {
        get {
            token.check(#fileID, #line)
            return storage
        }
        _modify {
            token.check(#fileID, #line)
            yield &storage
        }
    }

    /// Runs `body` with the value; only on the loop.
    package func withValue<Result>(
        file: StaticString = #fileID, line: UInt = #line, _ body: (inout Value) throws -> Result
    ) rethrows -> Result {
        token.check(file, line)
        return try body(&storage)
    }
}
