import Dispatch
import Foundation
import TerminalEmulator
import HarnessSystem

/// The engine behind a `TerminalSession`: owns the pty master, the emulator, the reader and
/// reaper threads and the pending waits. All mutable state is guarded by `condition`'s lock.
///
/// This file holds the state, the queries, input, resize and teardown; the threads are in
/// `SessionCore+Reader.swift` (reading the terminal, reaping the child, publishing the exit),
/// the waits in `SessionCore+Waiting.swift` (what satisfies each kind, over a `WaiterTable`).
///
/// The threads hold the core, never the public `TerminalSession`, so dropping the session
/// runs its `deinit`, which terminates the program and releases everything here.
final class SessionCore: @unchecked Sendable {
    // MARK: - Fixed at launch

    let pid: Int32
    let master: Int32
    /// The reader thread: polls the master and wakes up when input is queued or a stop requested.
    let loop: ReadinessLoop
    /// How the session was launched (the default timeout, `onOutput` called with each chunk read).
    let configuration: TerminalSession.Configuration
    var defaultTimeout: Duration { configuration.defaultTimeout }
    /// The absolute path of the executed file.
    let executable: String
    /// `MonotonicClock.nanoseconds()` at launch: the origin of recording times.
    let launchUptime: UInt64
    /// What the test did with the session, for its trace.
    let journal = SessionJournal()

    // MARK: - Guarded by `condition`

    let condition = NSCondition()
    let terminal: Terminal
    private(set) var size: TerminalSize
    var recordingStorage: TerminalRecording
    var tail = OutputTail(capacity: 4096)
    /// Input not yet accepted by the pty (the program is not reading); written by the reader.
    var outgoing: [UInt8] = []
    var lastOutputUptime: UInt64
    /// Set by the reaper when `waitpid` returned.
    var reapedStatus: ExitStatus?
    /// Set once the output was drained after the exit: what waits and `exitStatus` see.
    var exitStatus: ExitStatus?
    var readerFinished = false
    var reaperFinished = false
    var stopRequested = false
    private(set) var isClosed = false
    /// The output stream's cursor: an absolute offset in the printed text. Output waits match
    /// only after it and move it past each match (pexpect's consuming `expect`).
    var outputCursor = 0
    /// How many lines had scrolled off when input was last sent or a screen wait last matched:
    /// text and regex waits also search the lines that scrolled off since then.
    private(set) var screenHorizon = 0
    /// Bumped by every change of the screen model (output fed, resize).
    var screenGeneration: UInt64 = 0
    /// The last snapshot taken and the generation it shows: a snapshot is taken at most once
    /// per change, however many waits and queries look at it.
    private var cachedSnapshot: (generation: UInt64, screen: ScreenSnapshot)?

    /// Called once with the exit status when the program has exited and its output is drained.
    var exitHandlers: [@Sendable (ExitStatus) -> Void] = []

    // MARK: - Not guarded by `condition`

    /// The pending waits (the table has its own lock, always taken inside `condition`'s). A
    /// stability wait's timer is cancelled whenever the wait leaves the table.
    let waiters = WaiterTable<PendingWait, WaitOutcome>(didRemove: { $0.stableTimer?.cancel() })

    /// Serialises `terminate` calls; the second one returns the first one's status.
    private let terminateOnce = ChildProcess.TerminateOnce()

    init(
        pid: Int32, master: Int32, loop: ReadinessLoop,
        configuration: TerminalSession.Configuration, executable: String, term: String?
    ) {
        self.pid = pid
        self.master = master
        self.loop = loop
        self.configuration = configuration
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
        waiters.describeTimeouts(with: self) { $0.timeoutError(for: $1) }
    }

    /// Starts the reader and reaper threads.
    func start() {
        loop.start(name: "TerminalSession.reader(\(pid))", stackSize: 1 << 20) { [self] _ in runReader() }
        ChildProcess.startReaper(of: pid, name: "TerminalSession.reaper(\(pid))") { [self] in reaped($0) }
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

    func snapshotLocked() -> ScreenSnapshot {
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

    func recordInputLocked(_ bytes: [UInt8]) {
        recordingStorage.events.append(.init(time: uptimeSinceLaunch, kind: .input, bytes: bytes))
    }

    /// Writes queued input as far as the pty accepts it. Errors drop the queue: the program
    /// is gone or the terminal closed, so nobody would read it.
    func flushOutgoingLocked() {
        guard !outgoing.isEmpty, !isClosed else { return }
        do {
            let written = try Posix.write(master, bytes: outgoing) ?? 0
            outgoing.removeFirst(written)
        } catch {
            outgoing.removeAll()
        }
    }

    func wakeReaderLocked() {
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
        let pending = screenPredicatesLocked(waiters.conditions())
        condition.unlock()
        evaluate(pending)
    }

    // MARK: - Terminate

    /// Ends the program's whole process group (SIGHUP and SIGTERM, then SIGKILL after
    /// `grace`), stops the reader, closes the descriptors. Idempotent; blocks until done.
    @discardableResult
    func terminate(grace: Duration) -> ExitStatus {
        terminateOnce.run {
            ChildProcess.endProcessGroup(of: pid, signals: [SIGHUP, SIGTERM], signalLeaderToo: false, grace: grace) { deadline in
                condition.wait(until: deadline) { reapedStatus != nil }
            }
            ChildProcess.stopThreads(
                condition, reaped: { reapedStatus != nil }, requestStop: {
                    stopRequested = true
                    wakeReaderLocked()
                }, finished: { readerFinished && reaperFinished }
            ) {
                isClosed = true
                Posix.closeIgnoringErrors(master)
                loop.close()
            }
            // Pending waits were resolved by the exit; the timer has nothing left to do.
            waiters.close()
            publishExitIfNeeded()
            return withLock { exitStatus ?? reapedStatus! }
        }
    }
}
