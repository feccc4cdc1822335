// The one event loop of a process: one thread that owns every descriptor the harness watches
// (pty masters, pipes, sockets of the bridge and the stub servers, pidfds of children) and
// every deadline (one timer heap). Sessions, bridges and servers register what they watch and
// get called on the loop; nothing else in the package starts a thread per session, per
// connection or per launch (blocking calls go to the one `BlockingWorker`).
//
// epoll on Linux (level-triggered), poll(2) elsewhere: see `EventLoop+Poller.swift`. Timers are
// in `EventLoop+Timers.swift`, child exits in `EventLoop+Processes.swift`.

import CHarnessSystem
import Foundation
import Synchronization

/// One thread waiting for descriptors to become ready and for deadlines to pass, running the
/// handlers registered for them, and the jobs other threads hand it.
///
/// State owned by the loop (what the handlers of one owner share) is a ``LoopBound`` value,
/// checked on every access. Every method here may be called from any thread; registrations made on the loop take effect
/// before its next wait, others as soon as the loop picks them up, in the order they were made.
///
/// ```swift
/// let loop = EventLoop.shared
/// let watch = loop.watch(fd, for: .readable) { events in readAvailable() }
/// let timer = loop.schedule(after: .seconds(1)) { giveUp() }
/// loop.cancel(timer)
/// loop.unwatch(watch, closing: true)   // removed from the poller, then closed, on the loop
/// ```
package final class EventLoop: Sendable {
    /// The loop of this process, started on first use.
    package static let shared = EventLoop(name: "harness.loop")

    /// A descriptor registered with ``watch(_:for:_:)``.
    package struct Watch: Hashable, Sendable {
        package let id: UInt64
    }

    /// A deadline registered with ``schedule(at:_:)``.
    package struct Timer: Hashable, Sendable {
        package let id: UInt64
    }

    /// What other threads hand the loop (no lock: see `EventLoop+Inbox.swift`).
    let inbox = Inbox()
    private let nextID = Atomic<UInt64>(1)
    let wakeUpRead: Int32
    let wakeUpWrite: Int32
    /// A one-shot timer (Linux's `timerfd`; -1 elsewhere) that wakes the loop for jobs queued
    /// without waking it (``executeOnNextWakeUp(_:wakeNow:)``), in case no event comes first.
    let backstop: Int32
    /// How long a job queued without waking the loop waits at most for an event to wake it.
    package static let backstopDelay: Duration = .milliseconds(1)
    /// Whether ``executeOnNextWakeUp(_:wakeNow:)`` defers its wake-up; off, it wakes the loop
    /// at once as ``execute(_:)`` does. Off by default: on the 2-core machine of
    /// docs/PERFORMANCE.md ("Keystroke to screen"), a wait admitted at once (its wake-up
    /// overlapping the echo's travel) resumed sooner than one admitted on the echo's wake-up;
    /// `LatencyBenchmark` measures both in one run.
    package let defersWakeUps = Atomic<Bool>(false)
    /// How many times the loop returned from the poller (a wake-up: for descriptors, jobs or
    /// timers), for benchmarks.
    package let wakeUps = Atomic<UInt64>(0)
    /// Which thread runs the loop; what a wrong-thread access of loop-bound state does.
    let token: LoopToken
    /// The watched descriptors, the timers and the poller: the loop's own state.
    let owned: LoopBound<Owned>

    /// Starts a loop on a thread of its own named `name`. The loop runs for the life of the
    /// process (``shared``); tests of the loop itself make their own. `offLoopAccess` is called
    /// when state bound to this loop is touched off its thread (nil: the process stops).
    package init(name: String, offLoopAccess: (@Sendable (String) -> Void)? = nil) {
        let pipe: (read: Int32, write: Int32)
        do {
            pipe = try Posix.makeWakeUpPipe()
        } catch {
            fatalError("EventLoop: cannot create its wake-up pipe: \(error)")
        }
        wakeUpRead = pipe.read
        wakeUpWrite = pipe.write
        token = LoopToken(name: name, offLoopAccess: offLoopAccess)
        backstop = harness_backstop_create()
        owned = LoopBound(Owned(poller: Poller(wakeUp: pipe.read, backstop: backstop)), token: token)
        let thread = Thread { [self] in
            // Named from inside: the kernel's name of the thread (ps, gdb, /proc) is set then.
            Thread.current.name = name
            token.markCurrentThread()
            run()
        }
        thread.name = name
        thread.stackSize = 8 << 20
        thread.start()
    }

    // MARK: - Where the caller runs

    /// Whether the caller runs on the loop's thread.
    package var inLoop: Bool { token.isCurrent }

    // MARK: - Jobs

    /// Runs `job` on the loop, after the jobs handed to it before. From the loop itself, `job`
    /// runs after the current handler, before the loop waits again.
    package func execute(_ job: @escaping @Sendable () -> Void) {
        if inbox.push(job) { Posix.wake(wakeUpWrite) }
    }

    /// Runs `job` on the loop when it next wakes, without waking it now: for a job that only
    /// matters once an event comes (a wait's admission, while the output that satisfies it is
    /// on its way), so that the event's wake-up runs both. `wakeNow` is asked after the job is
    /// queued, when the loop is blocked: true wakes it at once (what the job looks for may be
    /// there already). Otherwise the loop runs the job when a descriptor, a timer or another
    /// job wakes it, at the latest ``backstopDelay`` from now. Where the backstop timer is
    /// missing (Darwin), the same as ``execute(_:)``.
    package func executeOnNextWakeUp(_ job: @escaping @Sendable () -> Void, wakeNow: () -> Bool) {
        guard inbox.pushQuietly(job) else { return }
        if backstop < 0 || !defersWakeUps.load(ordering: .relaxed) || wakeNow() {
            if inbox.claimWakeUp() { Posix.wake(wakeUpWrite) }
        } else if harness_backstop_arm(backstop, Int64(Self.backstopDelay.clampedNanoseconds)) != 0 {
            if inbox.claimWakeUp() { Posix.wake(wakeUpWrite) }
        }
    }

    /// Runs `body` on the loop and returns its result (at once when called on the loop).
    /// Blocks the caller: only for threads that may block.
    package func submitAndWait<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        if inLoop { return body() }
        let result = Locked<T?>(nil)
        execute { result.withLockNotifying { $0 = body() } }
        result.wait(until: { $0 != nil })
        return result.withLock { $0! }
    }

    /// Runs `body` on the loop and returns its result to the awaiting task.
    package func submit<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            execute { continuation.resume(returning: body()) }
        }
    }

    /// Numbers watches and timers, on any thread, without a lock (a registration made on the
    /// loop under its owner's lock takes no other).
    func allocateID() -> UInt64 { nextID.wrappingAdd(1, ordering: .relaxed).oldValue }

    /// Runs `body` now when on the loop, else as a job.
    package func onLoop(_ body: @escaping @Sendable () -> Void) {
        if inLoop { body() } else { execute(body) }
    }

    // MARK: - Descriptors

    /// Calls `handler` on the loop with the events of `fd` whenever it is ready for `interest`
    /// (level-triggered: again and again while it stays ready). Hang-ups and errors are
    /// reported whether asked for or not. The loop does not own `fd`: ``unwatch(_:closing:then:)``
    /// before closing it (or let that close it).
    package func watch(
        _ fd: Int32, for interest: Posix.PollEvents, _ handler: @escaping @Sendable (Posix.PollEvents) -> Void
    ) -> Watch {
        let watch = Watch(id: allocateID())
        onLoop { [self] in
            owned.value.add(watch.id, fd: fd, interest: interest, handler: handler)
        }
        return watch
    }

    /// Changes what the loop waits for on a watched descriptor (an empty set: only failures).
    package func setInterest(_ watch: Watch, _ interest: Posix.PollEvents) {
        onLoop { [self] in owned.value.modify(watch.id, interest: interest) }
    }

    /// Stops watching: after this runs on the loop the handler is never called again. With
    /// `closing`, the descriptor is then closed (on the loop, so never while a handler reads
    /// it); `then` runs on the loop afterwards.
    package func unwatch(_ watch: Watch, closing: Bool = false, then: (@Sendable () -> Void)? = nil) {
        onLoop { [self] in
            if let fd = owned.value.remove(watch.id), closing { Posix.closeIgnoringErrors(fd) }
            then?()
        }
    }

    // MARK: - The loop

    private func run() {
        var tokens = [UInt64](repeating: 0, count: 64)
        var events = [UInt32](repeating: 0, count: 64)
        while true {
            runJobs()
            let timeout = inbox.beginWaiting() ? owned.value.timeoutMilliseconds() : 0
            let count = owned.value.poller.wait(tokens: &tokens, events: &events, timeoutMilliseconds: timeout)
            inbox.endWaiting()
            if timeout != 0 { wakeUps.wrappingAdd(1, ordering: .relaxed) }
            for index in 0..<count {
                let token = tokens[index]
                if token == Poller.wakeUpToken {
                    Posix.drain(wakeUpRead)
                    inbox.drainedWakeUp()
                    continue
                }
                if token == Poller.backstopToken {
                    Posix.drain(backstop)  // the jobs run at the top of the next turn
                    continue
                }
                // Read out first: the handler registers and removes watches itself.
                let handler = owned.value.handler(of: token)
                handler?(Poller.pollEvents(events[index]))
            }
            // After the descriptors: what arrived before a deadline passed (while this thread
            // was not scheduled, say) is read before that deadline's timer may call it late.
            fireDueTimers()
        }
    }

    /// Runs the timers whose deadline passed, earliest first (each popped before it runs: a
    /// timer schedules and cancels timers itself).
    private func fireDueTimers() {
        let now = MonotonicClock.nanoseconds()
        while let job = owned.value.timers.popDue(at: now) { job() }
    }

    /// Runs the jobs queued so far; jobs they queue run on the next turn (after a poll that
    /// does not block), so a job that queues itself cannot starve the descriptors.
    private func runJobs() {
        for job in inbox.takeAll() { job() }
    }
}
