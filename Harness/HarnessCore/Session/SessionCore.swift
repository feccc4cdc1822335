import Dispatch
import Foundation
import TerminalEmulator
import HarnessSystem

/// The engine behind a `TerminalSession`: owns the pty master, the emulator, the reader and
/// reaper threads and the pending waits. All mutable state is guarded by `condition`'s lock.
///
/// The threads hold the core, never the public `TerminalSession`, so dropping the session
/// runs its `deinit`, which terminates the program and releases everything here.
final class SessionCore: @unchecked Sendable {
    // MARK: - Fixed at launch

    let pid: Int32
    let master: Int32
    /// The reader thread: polls the master and wakes up when input is queued or a stop requested.
    let loop: ReadinessLoop
    let defaultTimeout: Duration
    let executable: String
    /// `MonotonicClock.nanoseconds()` at launch: the origin of recording times.
    let launchUptime: UInt64
    /// Called on the reader thread with each output chunk (``TerminalSession/Configuration/onOutput``).
    let onOutput: (@Sendable ([UInt8]) -> Void)?

    // MARK: - Guarded by `condition`

    let condition = NSCondition()
    private let terminal: Terminal
    private(set) var size: TerminalSize
    private var recordingStorage: TerminalRecording
    private var tail = OutputTail(capacity: 4096)
    /// Input not yet accepted by the pty (the program is not reading); written by the reader.
    private var outgoing: [UInt8] = []
    private var lastOutputUptime: UInt64
    /// Set by the reaper when `waitpid` returned.
    private var reapedStatus: ExitStatus?
    /// Set once the output was drained after the exit: what waits and `exitStatus` see.
    private(set) var exitStatus: ExitStatus?
    private var readerFinished = false
    private var reaperFinished = false
    private var stopRequested = false
    private(set) var isClosed = false
    private var waiters: [UInt64: Waiter] = [:]
    private var nextWaiterID: UInt64 = 1
    private var cancelledBeforeRegistration: Set<UInt64> = []
    private var screenWaiterCount = 0
    private var outputWaiterCount = 0
    /// The output stream's cursor: an absolute offset in the printed text. Output waits match
    /// only after it and move it past each match (pexpect's consuming `expect`).
    private(set) var outputCursor = 0
    /// How many lines had scrolled off when input was last sent or a screen wait last matched:
    /// text and regex waits also search the lines that scrolled off since then.
    private(set) var screenHorizon = 0
    /// Bumped by every change of the screen model (output fed, resize).
    private var screenGeneration: UInt64 = 0
    /// The session's single timer for wait timeouts and the deadline it is armed for.
    private var timeoutTimer: DispatchSourceTimer?
    private var armedTimeoutDeadline: UInt64?
    /// The last snapshot taken and the generation it shows: a snapshot is taken at most once
    /// per change, however many waits and queries look at it.
    private var cachedSnapshot: (generation: UInt64, screen: ScreenSnapshot)?

    /// Called once with the exit status when the program has exited and its output is drained.
    private var exitHandlers: [@Sendable (ExitStatus) -> Void] = []

    /// Serialises `terminate` calls; the second one returns the first one's status.
    private let terminateLock = NSLock()
    private var terminatedStatus: ExitStatus?

    init(
        pid: Int32, master: Int32, loop: ReadinessLoop,
        configuration: TerminalSession.Configuration, executable: String, term: String?
    ) {
        self.pid = pid
        self.master = master
        self.loop = loop
        self.defaultTimeout = configuration.defaultTimeout
        self.onOutput = configuration.onOutput
        self.executable = executable
        self.size = configuration.size
        let now = MonotonicClock.nanoseconds()
        self.launchUptime = now
        self.lastOutputUptime = now
        self.terminal = Terminal(cols: configuration.size.cols, rows: configuration.size.rows)
        self.recordingStorage = TerminalRecording(size: configuration.size, startDate: Date(), term: term)
        terminal.onResponse = { [unowned self] bytes in
            // Called inside `feed`, so with the lock held.
            self.recordInputLocked(bytes)
            self.outgoing += bytes
        }
    }

    /// Starts the reader and reaper threads.
    func start() {
        let reaper = Thread { [self] in runReaper() }
        reaper.name = "TerminalSession.reaper(\(pid))"
        reaper.stackSize = 256 << 10
        loop.start(name: "TerminalSession.reader(\(pid))", stackSize: 1 << 20) { [self] _ in runReader() }
        reaper.start()
    }

    // MARK: - Locking

    @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }

    var uptimeSinceLaunch: Double {
        Double(MonotonicClock.nanoseconds() &- launchUptime) / 1e9
    }

    // MARK: - Queries

    func snapshot() -> ScreenSnapshot { withLock { snapshotLocked() } }

    private func snapshotLocked() -> ScreenSnapshot {
        if let cachedSnapshot, cachedSnapshot.generation == screenGeneration { return cachedSnapshot.screen }
        let screen = terminal.snapshot()
        cachedSnapshot = (screenGeneration, screen)
        return screen
    }
    var modes: TerminalModes { withLock { terminal.modes } }
    /// The modes and the screen at the same moment (a mouse gesture reads both).
    var modesAndScreen: (TerminalModes, ScreenSnapshot) { withLock { (terminal.modes, snapshotLocked()) } }
    var recording: TerminalRecording { withLock { recordingStorage } }
    var recentOutput: [UInt8] { withLock { tail.last(tail.capacity) } }
    var printedText: PrintedText { withLock { terminal.printedText } }
    var currentOutputCursor: Int { withLock { outputCursor } }
    /// For callers holding the lock.
    var printedTextLocked: PrintedText { terminal.printedText }
    var outputCursorLocked: Int { outputCursor }
    var currentScreenHorizon: Int { withLock { screenHorizon } }

    /// Moves the screen horizon forward to `scrolledOff` (never back): a screen wait matched.
    func advanceScreenHorizon(to scrolledOff: Int) {
        withLock { screenHorizon = max(screenHorizon, scrolledOff) }
    }

    /// Moves the output cursor to the end of what was printed so far; returns that text.
    func consumeOutput() -> String {
        withLock {
            let printed = terminal.printedText
            let text = printed.text(from: outputCursor)
            outputCursor = printed.endOffset
            return text
        }
    }

    /// The printed text after the output cursor, for failure messages.
    func outputTailLocked() -> String {
        terminal.printedText.tail(after: outputCursor)
    }
    var currentSize: TerminalSize { withLock { size } }
    var currentExitStatus: ExitStatus? { withLock { exitStatus } }

    /// Whether both helper threads have ended and the descriptors are closed.
    var isFullyReleased: Bool { withLock { readerFinished && reaperFinished && isClosed } }

    // MARK: - Input

    /// Writes `bytes` to the program now if the pty accepts them; queues the rest for the
    /// reader thread, which writes it as the program reads. Never blocks.
    func send(_ bytes: [UInt8]) throws(TerminalSessionError) {
        guard !bytes.isEmpty else { return }
        condition.lock()
        defer { condition.unlock() }
        guard !isClosed else { throw .sessionTerminated }
        recordInputLocked(bytes)
        screenHorizon = terminal.scrolledOffCount
        if outgoing.isEmpty {
            let written: Int
            do {
                written = try Posix.write(master, bytes: bytes) ?? 0
            } catch {
                throw .ioFailed(error)
            }
            if written < bytes.count {
                outgoing += bytes[written...]
                wakeReaderLocked()
            }
        } else {
            outgoing += bytes
            wakeReaderLocked()
        }
    }

    private func recordInputLocked(_ bytes: [UInt8]) {
        recordingStorage.events.append(.init(time: uptimeSinceLaunch, kind: .input, bytes: bytes))
    }

    /// Writes queued input as far as the pty accepts it. Errors drop the queue: the program
    /// is gone or the terminal closed, so nobody would read it.
    private func flushOutgoingLocked() {
        guard !outgoing.isEmpty, !isClosed else { return }
        do {
            let written = try Posix.write(master, bytes: outgoing) ?? 0
            outgoing.removeFirst(written)
        } catch {
            outgoing.removeAll()
        }
    }

    private func wakeReaderLocked() {
        guard !isClosed else { return }
        loop.wake()
    }

    // MARK: - Resize

    func resize(_ newSize: TerminalSize) throws(TerminalSessionError) {
        guard newSize.cols >= 1, newSize.rows >= 1, newSize.cols <= Int(UInt16.max), newSize.rows <= Int(UInt16.max) else {
            throw .invalidConfiguration("terminal size \(newSize) is out of range")
        }
        condition.lock()
        guard !isClosed else {
            condition.unlock()
            throw .sessionTerminated
        }
        do {
            try Posix.setWindowSize(master, cols: newSize.cols, rows: newSize.rows)
        } catch {
            condition.unlock()
            throw .ioFailed(error)
        }
        terminal.resize(cols: newSize.cols, rows: newSize.rows)
        screenGeneration += 1
        size = newSize
        recordingStorage.events.append(.init(time: uptimeSinceLaunch, kind: .resize, bytes: Array("\(newSize.cols)x\(newSize.rows)".utf8)))
        let pending = screenPredicatesLocked()
        condition.unlock()
        evaluate(pending)
    }

    // MARK: - Reader thread

    /// How long, after the program was reaped (or terminated), the reader keeps waiting for the
    /// end of its terminal before it publishes the exit anyway. The end comes as soon as every
    /// process holding the terminal closed it, and Linux delivers all the bytes written before
    /// it first (the pty's buffer is flushed before read reports EIO): the exit is then
    /// published with every last word parsed. Only a process that outlives the program and
    /// keeps the terminal open (a background job) makes the reader wait this long.
    static let lingeringTerminalGrace: UInt64 = 500_000_000

    private func runReader() {
        let capacity = 64 * 1024
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        var masterAtEnd = false
        // Set once the program was reaped or terminate asked to stop, while the terminal is
        // still open: the uptime at which the reader stops waiting for its end.
        var drainDeadline: UInt64?

        while true {
            let (wantsWrite, stop, reaped) = withLock { (!outgoing.isEmpty, stopRequested, reapedStatus != nil && exitStatus == nil) }
            if stop || reaped {
                let now = DispatchTime.now().uptimeNanoseconds
                if !masterAtEnd { masterAtEnd = readAvailable(buffer, maximumReads: 256) }
                if masterAtEnd || (drainDeadline.map { now >= $0 } ?? false) {
                    if stop { break }
                    publishExitIfNeeded()
                    drainDeadline = nil
                } else if drainDeadline == nil {
                    drainDeadline = now + Self.lingeringTerminalGrace
                }
            }
            var requests: [(fd: Int32, events: Posix.PollEvents)] = []
            if !masterAtEnd { requests.append((master, wantsWrite ? [.readable, .writable] : .readable)) }
            var timeout: Int32 = -1
            if let drainDeadline {
                let now = DispatchTime.now().uptimeNanoseconds
                timeout = Int32(clamping: (drainDeadline > now ? drainDeadline - now : 0) / 1_000_000 + 1)
            }
            let events: [Posix.PollEvents]
            do {
                events = try loop.wait(requests, timeoutMilliseconds: timeout)
            } catch {
                break  // cannot happen with valid descriptors; leave rather than spin
            }
            if !masterAtEnd {
                let masterEvents = events[0]
                if !masterEvents.intersection([.readable, .hangUp, .error, .invalid]).isEmpty {
                    masterAtEnd = readAvailable(buffer, maximumReads: 16)
                }
                if masterEvents.contains(.writable) { withLock { flushOutgoingLocked() } }
            }
            // The end of the terminal after the child was reaped: every byte was read.
            if masterAtEnd { publishExitIfNeeded() }
        }
        withLock {
            readerFinished = true
            condition.broadcast()
        }
        publishExitIfNeeded()
    }

    /// Reads until the pty has nothing more (EAGAIN) or `maximumReads` chunks were handled.
    /// Returns true at end of file (EIO on Linux once every slave descriptor is closed).
    private func readAvailable(_ buffer: UnsafeMutableRawBufferPointer, maximumReads: Int) -> Bool {
        var reads = 0
        while reads < maximumReads {
            let count: Int?
            do {
                count = try Posix.read(master, into: buffer)
            } catch {
                return true  // EIO: the program side of the terminal is closed
            }
            guard let count else { return false }  // EAGAIN: nothing more for now
            if count == 0 { return true }
            handleOutput(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            reads += 1
        }
        return false
    }

    /// Feeds one chunk of output to the emulator and wakes the waits it may satisfy.
    private func handleOutput(_ bytes: UnsafeRawBufferPointer) {
        condition.lock()
        let now = MonotonicClock.nanoseconds()
        recordingStorage.events.append(.init(time: Double(now &- launchUptime) / 1e9, kind: .output, bytes: Array(bytes)))
        tail.append(bytes)
        terminal.feed(bytes)
        screenGeneration += 1
        lastOutputUptime = now
        rearmStableTimersLocked(now: now)
        if !outgoing.isEmpty { flushOutgoingLocked() }
        let pending = screenPredicatesLocked()
        let matched = matchOutputWaitersLocked()
        condition.unlock()
        onOutput?(Array(bytes))
        for (continuation, match) in matched { continuation.resume(returning: .output(match)) }
        evaluate(pending)
    }

    // MARK: - Reaper thread

    private func runReaper() {
        let status: ExitStatus
        do {
            status = ExitStatus(try Posix.waitForTermination(pid))
        } catch {
            // ECHILD: someone else reaped our child; its status is lost.
            status = .exited(-1)
        }
        withLock {
            reapedStatus = status
            reaperFinished = true
            condition.broadcast()
            wakeReaderLocked()
        }
    }

    // MARK: - Exit

    /// Publishes the exit once the child was reaped and its output drained.
    private func publishExitIfNeeded() {
        condition.lock()
        guard exitStatus == nil, let status = reapedStatus else {
            condition.unlock()
            return
        }
        exitStatus = status
        condition.broadcast()
        let finalScreen = snapshotLocked()
        var resolutions: [(CheckedContinuation<WaitOutcome, Error>, Result<WaitOutcome, Error>)] = []
        var screenChecks: [(UInt64, @Sendable (ScreenSnapshot) -> Bool)] = []
        for (id, waiter) in waiters {
            switch waiter.condition {
            case .exit:
                resolutions.append((removeWaiterLocked(id)!, .success(.exit(status))))
            case .stable:
                // Nothing can change the screen any more: it is stable.
                resolutions.append((removeWaiterLocked(id)!, .success(.screen(finalScreen))))
            case .screen(let predicate):
                screenChecks.append((id, predicate))
            case .output:
                break  // below, in registration order
            }
        }
        for (continuation, match) in matchOutputWaitersLocked() {
            resolutions.append((continuation, .success(.output(match))))
        }
        let unmatchedOutput = outputTailLocked()
        for (id, waiter) in waiters {
            guard case .output = waiter.condition else { continue }
            resolutions.append((removeWaiterLocked(id)!, .failure(TerminalSessionError.exitedWhileWaiting(
                waitingFor: waiter.description, status: status, screen: finalScreen.framed(), output: unmatchedOutput))))
        }
        let handlers = exitHandlers
        exitHandlers = []
        condition.unlock()
        for handler in handlers { handler(status) }
        for (continuation, result) in resolutions { continuation.resume(with: result) }
        for (id, predicate) in screenChecks {
            if predicate(finalScreen) {
                resolve(id, with: .success(.screen(finalScreen)))
            } else {
                resolve(id) { waiter in
                    .failure(TerminalSessionError.exitedWhileWaiting(
                        waitingFor: waiter.description, status: status, screen: finalScreen.framed(),
                        output: self.outputTailLocked()))
                }
            }
        }
    }

    /// Runs `handler` once when the program has exited (at once if it already has).
    func onExit(_ handler: @escaping @Sendable (ExitStatus) -> Void) {
        let status: ExitStatus? = withLock {
            if let exitStatus { return exitStatus }
            exitHandlers.append(handler)
            return nil
        }
        if let status { handler(status) }
    }

    // MARK: - Terminate

    /// Ends the program's whole process group (SIGHUP and SIGTERM, then SIGKILL after
    /// `grace`), stops the reader, closes the descriptors. Idempotent; blocks until done.
    @discardableResult
    func terminate(grace: Duration) -> ExitStatus {
        terminateLock.lock()
        defer { terminateLock.unlock() }
        if let terminatedStatus { return terminatedStatus }

        let group = pid
        if withLock({ reapedStatus == nil }) {
            _ = try? Posix.killProcessGroup(group, SIGHUP)
            _ = try? Posix.killProcessGroup(group, SIGTERM)
            _ = try? Posix.killProcessGroup(group, SIGCONT)  // a stopped program must run to die
            let deadline = Date(timeIntervalSinceNow: grace.seconds)
            condition.lock()
            while reapedStatus == nil {
                if !condition.wait(until: deadline) { break }
            }
            let exited = reapedStatus != nil
            condition.unlock()
            if !exited { _ = try? Posix.killProcessGroup(group, SIGKILL) }
        }
        // Whatever is left of the group (background jobs of a shell that exited) goes too,
        // and terminate returns once those processes are gone (pidfds, event driven).
        _ = try? Posix.killProcessGroup(group, SIGKILL)
        // Scanning /proc costs about a millisecond: only when the group still has members.
        let remaining = Posix.exists(-group) ? Posix.livingMembers(ofProcessGroup: group).filter { $0 != pid } : []
        if !remaining.isEmpty {
            _ = try? Posix.killProcessGroup(group, SIGKILL)
            Posix.waitUntilExited(remaining, timeout: .seconds(2))
        }

        condition.lock()
        while reapedStatus == nil { condition.wait() }
        stopRequested = true
        wakeReaderLocked()
        while !readerFinished || !reaperFinished { condition.wait() }
        condition.unlock()

        // Descriptors are closed exactly once, here, after both threads stopped using them.
        withLock {
            isClosed = true
            Posix.closeIgnoringErrors(master)
            loop.close()
        }
        // Pending waits were resolved by the exit; the timer has nothing left to do.
        withLock {
            timeoutTimer?.cancel()
            timeoutTimer = nil
        }
        publishExitIfNeeded()
        let status = withLock { exitStatus ?? reapedStatus! }
        terminatedStatus = status
        return status
    }

    // MARK: - Waiters (see SessionCore+Waiting.swift)

    /// What a pending wait waits for.
    enum WaitCondition {
        case screen(@Sendable (ScreenSnapshot) -> Bool)
        case stable(quietNanoseconds: UInt64, registeredUptime: UInt64)
        case exit
        /// Text or a regex in the printed output after the cursor; a match moves the cursor.
        case output(OutputPattern)
    }

    /// What a satisfied wait returns.
    enum WaitOutcome: Sendable {
        case screen(ScreenSnapshot)
        case exit(ExitStatus)
        case output(OutputMatch)
    }

    struct Waiter {
        let description: String
        let condition: WaitCondition
        let timeout: Duration
        let continuation: CheckedContinuation<WaitOutcome, Error>
        /// `DispatchTime` uptime nanoseconds when the wait times out.
        let deadline: UInt64
        var stableTimer: DispatchSourceTimer?
    }

    /// Allocates a waiter id (before the continuation exists, so cancellation can name it).
    func makeWaiterID() -> UInt64 {
        withLock {
            defer { nextWaiterID += 1 }
            return nextWaiterID
        }
    }

    /// Registers a wait; resumes `continuation` exactly once: when satisfied, on timeout, on
    /// exit or on cancellation.
    func register(
        id: UInt64, description: String, condition waitCondition: WaitCondition, timeout: Duration,
        continuation: CheckedContinuation<WaitOutcome, Error>
    ) {
        condition.lock()
        if cancelledBeforeRegistration.remove(id) != nil {
            condition.unlock()
            continuation.resume(throwing: CancellationError())
            return
        }
        if let status = exitStatus {
            let finalScreen = snapshotLocked()
            if case .output(let pattern) = waitCondition {
                let match = pattern.firstMatch(in: terminal.printedText, after: outputCursor)
                if let match { outputCursor = match.range.upperBound }
                let output = outputTailLocked()
                condition.unlock()
                if let match {
                    continuation.resume(returning: .output(match))
                } else {
                    continuation.resume(throwing: TerminalSessionError.exitedWhileWaiting(
                        waitingFor: description, status: status, screen: finalScreen.framed(), output: output))
                }
                return
            }
            let output = outputTailLocked()
            condition.unlock()
            switch waitCondition {
            case .exit: continuation.resume(returning: .exit(status))
            case .stable: continuation.resume(returning: .screen(finalScreen))
            case .screen(let predicate):
                if predicate(finalScreen) {
                    continuation.resume(returning: .screen(finalScreen))
                } else {
                    continuation.resume(throwing: TerminalSessionError.exitedWhileWaiting(
                        waitingFor: description, status: status, screen: finalScreen.framed(), output: output))
                }
            case .output:
                preconditionFailure("handled above")
            }
            return
        }

        let now = MonotonicClock.nanoseconds()
        let (deadline, overflow) = now.addingReportingOverflow(timeout.clampedNanoseconds)
        var waiter = Waiter(
            description: description, condition: waitCondition, timeout: timeout, continuation: continuation,
            deadline: overflow ? UInt64.max / 2 : deadline)
        var current: ScreenSnapshot?
        switch waitCondition {
        case .screen:
            screenWaiterCount += 1
            current = snapshotLocked()
        case .stable(let quiet, _):
            let timer = DispatchSource.makeTimerSource(queue: .global())
            timer.setEventHandler { [weak self] in self?.stableTimerFired(id) }
            timer.schedule(deadline: .now() + .nanoseconds(Int(clamping: quiet)), leeway: .milliseconds(1))
            waiter.stableTimer = timer
            timer.resume()
        case .exit:
            break
        case .output(let pattern):
            if let match = pattern.firstMatch(in: terminal.printedText, after: outputCursor) {
                outputCursor = match.range.upperBound
                condition.unlock()
                continuation.resume(returning: .output(match))
                return
            }
            outputWaiterCount += 1
        }
        waiters[id] = waiter
        armTimeoutTimerLocked(for: waiter.deadline)
        condition.unlock()

        if case .screen(let predicate) = waitCondition, let current, predicate(current) {
            resolve(id, with: .success(.screen(current)))
        }
    }

    /// Called when the awaiting task is cancelled.
    func cancelWaiter(_ id: UInt64) {
        condition.lock()
        guard let continuation = removeWaiterLocked(id) else {
            // Not registered yet (or already resolved): remember, in case it is about to register.
            cancelledBeforeRegistration.insert(id)
            condition.unlock()
            return
        }
        condition.unlock()
        continuation.resume(throwing: CancellationError())
    }

    // MARK: Timeouts

    /// One timer per session serves every wait's timeout. It is armed for the earliest deadline
    /// and only re-armed when a new wait ends sooner; when it fires it fails the expired waits
    /// and re-arms for the next. Registering a wait therefore costs no timer operation in the
    /// common case (the latency benchmark registers thousands).
    private func armTimeoutTimerLocked(for deadline: UInt64) {
        if let armedTimeoutDeadline, armedTimeoutDeadline <= deadline { return }
        armedTimeoutDeadline = deadline
        if timeoutTimer == nil {
            let timer = DispatchSource.makeTimerSource(queue: .global())
            timer.setEventHandler { [weak self] in self?.timeoutTimerFired() }
            timer.schedule(deadline: DispatchTime(uptimeNanoseconds: deadline), leeway: .milliseconds(1))
            timer.resume()
            timeoutTimer = timer
        } else {
            timeoutTimer?.schedule(deadline: DispatchTime(uptimeNanoseconds: deadline), leeway: .milliseconds(1))
        }
    }

    private func timeoutTimerFired() {
        condition.lock()
        armedTimeoutDeadline = nil
        let now = MonotonicClock.nanoseconds()
        var failures: [(CheckedContinuation<WaitOutcome, Error>, Error)] = []
        var nextDeadline: UInt64?
        for (id, waiter) in waiters {
            if waiter.deadline <= now {
                let error = TerminalSessionError.timeout(
                    waitingFor: waiter.description, after: waiter.timeout,
                    screen: snapshotLocked().framed(), lastBytes: PrintableBytes.escape(tail.last(200)),
                    output: outputTailLocked())
                failures.append((removeWaiterLocked(id)!, error))
            } else {
                nextDeadline = min(nextDeadline ?? .max, waiter.deadline)
            }
        }
        if let nextDeadline { armTimeoutTimerLocked(for: nextDeadline) }
        condition.unlock()
        for (continuation, error) in failures { continuation.resume(throwing: error) }
    }

    private func stableTimerFired(_ id: UInt64) {
        condition.lock()
        guard let waiter = waiters[id], case .stable(let quiet, let registered) = waiter.condition else {
            condition.unlock()
            return
        }
        let now = MonotonicClock.nanoseconds()
        let quietSince = max(lastOutputUptime, registered)
        if now &- quietSince < quiet {
            // Output arrived since the timer was armed: wait for the rest of the quiet period.
            waiter.stableTimer?.schedule(deadline: DispatchTime(uptimeNanoseconds: quietSince + quiet), leeway: .milliseconds(1))
            condition.unlock()
            return
        }
        let screen = snapshotLocked()
        let continuation = removeWaiterLocked(id)
        condition.unlock()
        continuation?.resume(returning: .screen(screen))
    }

    private func rearmStableTimersLocked(now: UInt64) {
        for waiter in waiters.values {
            if case .stable(let quiet, _) = waiter.condition, let timer = waiter.stableTimer {
                timer.schedule(deadline: DispatchTime(uptimeNanoseconds: now + quiet), leeway: .milliseconds(1))
            }
        }
    }

    /// The current screen and the screen waits to evaluate against it (nil when none).
    private func screenPredicatesLocked() -> (ScreenSnapshot, [(UInt64, @Sendable (ScreenSnapshot) -> Bool)])? {
        guard screenWaiterCount > 0 else { return nil }
        var predicates: [(UInt64, @Sendable (ScreenSnapshot) -> Bool)] = []
        for (id, waiter) in waiters {
            if case .screen(let predicate) = waiter.condition { predicates.append((id, predicate)) }
        }
        return (snapshotLocked(), predicates)
    }

    /// Matches the pending output waits, oldest first, each after the cursor the previous one
    /// left, and removes the satisfied ones: their continuations are resumed by the caller,
    /// after unlocking.
    private func matchOutputWaitersLocked() -> [(CheckedContinuation<WaitOutcome, Error>, OutputMatch)] {
        guard outputWaiterCount > 0 else { return [] }
        var matched: [(CheckedContinuation<WaitOutcome, Error>, OutputMatch)] = []
        let printed = terminal.printedText
        for id in waiters.keys.sorted() {
            guard case .output(let pattern) = waiters[id]!.condition,
                  let match = pattern.firstMatch(in: printed, after: outputCursor) else { continue }
            outputCursor = match.range.upperBound
            matched.append((removeWaiterLocked(id)!, match))
        }
        return matched
    }

    /// Runs predicates outside the lock (they are the caller's code) and resolves the satisfied.
    private func evaluate(_ pending: (ScreenSnapshot, [(UInt64, @Sendable (ScreenSnapshot) -> Bool)])?) {
        guard let (screen, predicates) = pending else { return }
        for (id, predicate) in predicates where predicate(screen) {
            resolve(id, with: .success(.screen(screen)))
        }
    }

    /// Removes the waiter and returns its continuation, or nil when already resolved: the
    /// removal is what makes every resume happen exactly once.
    private func removeWaiterLocked(_ id: UInt64) -> CheckedContinuation<WaitOutcome, Error>? {
        guard let waiter = waiters.removeValue(forKey: id) else { return nil }
        waiter.stableTimer?.cancel()
        if case .screen = waiter.condition { screenWaiterCount -= 1 }
        if case .output = waiter.condition { outputWaiterCount -= 1 }
        return waiter.continuation
    }

    private func resolve(_ id: UInt64, with result: Result<WaitOutcome, Error>) {
        resolve(id) { _ in result }
    }

    /// Resolves a pending waiter with a result computed under the lock.
    private func resolve(_ id: UInt64, _ makeResult: (Waiter) -> Result<WaitOutcome, Error>) {
        condition.lock()
        guard let waiter = waiters[id] else {
            condition.unlock()
            return
        }
        let result = makeResult(waiter)
        let continuation = removeWaiterLocked(id)
        condition.unlock()
        continuation?.resume(with: result)
    }
}
