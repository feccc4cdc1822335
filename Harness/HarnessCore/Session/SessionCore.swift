import Foundation
import TerminalEmulator
import HarnessSystem

/// The engine behind a `TerminalSession`: owns the pty master, the emulator and the pending
/// waits. All mutable state is in `state`, reached only under its lock.
///
/// No thread of its own: the event loop (`EventLoop.shared`) reads the master, writes queued
/// input, reaps the child and runs the teardown. This file holds the state, the queries, input,
/// resize and teardown; what runs on the loop is in `SessionCore+Reader.swift` (reading the
/// terminal, the exit, the end of reading), the waits in `SessionCore+Waiting.swift`.
///
/// The loop's handlers hold the core, never the public `TerminalSession`, so dropping the
/// session runs its `deinit`, which terminates the program and releases everything here.
final class SessionCore: Sendable {
    // MARK: - Fixed at launch

    let pid: Int32
    let master: Int32
    /// How the session was launched (the default timeout, `onOutput` called with each chunk read).
    let configuration: TerminalSession.Configuration
    var defaultTimeout: Duration { configuration.defaultTimeout }
    /// The absolute path of the executed file.
    let executable: String
    /// `MonotonicClock.nanoseconds()` at launch: the origin of recording times.
    let launchUptime: UInt64
    /// What the test did with the session, for its trace.
    let journal = SessionJournal()

    /// What the emulator answers the program (cursor position reports...): collected while it
    /// parses, under the session's lock, and queued as input after each chunk.
    final class Responses {
        var bytes: [UInt8] = []
    }

    /// Everything that changes, guarded by one lock.
    struct State {
        let terminal: Terminal
        let responses: Responses
        var size: TerminalSize
        /// The recording's header (size, start, `TERM`); its events are `events`.
        let recordingHeader: TerminalRecording
        /// The recording's events, the newest up to the output limit.
        var events: BoundedLog<TerminalRecording.Event>
        var tail = OutputTail(capacity: 4096)
        /// Input not yet accepted by the pty (the program is not reading); the loop writes it
        /// when the master is writable.
        var outgoing: [UInt8] = []
        /// Whether the loop was asked to watch for writability (cleared when the queue drained).
        var writeInterest = false
        var lastOutputUptime: UInt64
        /// Whether the program wrote anything yet (``TerminalSession/Configuration/onFirstOutput``).
        var wroteOutput = false
        /// Set on the loop when the child was reaped.
        var reapedStatus: ExitStatus?
        /// Set once the output was drained after the exit: what waits and `exitStatus` see.
        var exitStatus: ExitStatus?
        /// The loop's watch of the master; nil once reading ended (end of file, or teardown).
        var watch: EventLoop.Watch?
        /// The master reached end of file: every process holding the terminal closed it.
        var masterAtEnd = false
        /// The timer that stops waiting for the end of the terminal (see `lingeringTerminalGrace`).
        var drainTimer: EventLoop.Timer?
        var drainExpired = false
        /// The teardown asked the loop to stop reading.
        var stopping = false
        var isClosed = false
        /// The output stream's cursor: an absolute offset in the printed text. Output waits
        /// match only after it and move it past each match (pexpect's consuming `expect`).
        var outputCursor = 0
        /// How many lines had scrolled off when input was last sent or a screen wait last
        /// matched: text and regex waits also search the lines that scrolled off since then.
        var screenHorizon = 0
        /// The number of the first shell command `waitForCommand` may see finish: the one not
        /// yet finished when input was last sent, or the one after the last it saw finish.
        var commandHorizon = 0
        /// Bumped by every change of the screen model (output fed, resize).
        var screenGeneration: UInt64 = 0
        /// The last snapshot taken and the generation it shows: a snapshot is taken at most
        /// once per change, however many waits and queries look at it.
        var cachedSnapshot: (generation: UInt64, screen: ScreenSnapshot)?
        /// The loop timer of the synchronized output limit and the held frame it was armed for.
        var heldFrameTimer: (timer: EventLoop.Timer, frame: Int)?
        /// What the terminal did on its own (synchronized frames released by the limit).
        var notices: [TerminalNotice] = []
        /// Called once with the exit status when the program has exited and its output is drained.
        var exitHandlers: [@Sendable (ExitStatus) -> Void] = []

        mutating func snapshot() -> ScreenSnapshot {
            if let cachedSnapshot, cachedSnapshot.generation == screenGeneration { return cachedSnapshot.screen }
            let screen = terminal.snapshot()
            cachedSnapshot = (screenGeneration, screen)
            return screen
        }

        /// The printed text after the output cursor, for failure messages.
        var outputTail: String { terminal.printedText.tail(after: outputCursor) }

        mutating func recordInput(_ bytes: [UInt8], launchUptime: UInt64) {
            record(.init(time: Self.seconds(since: launchUptime), kind: .input, bytes: bytes))
        }

        /// Adds an event to the recording; the first time the output limit drops older
        /// events, a notice says so (in the trace; the recording counts them).
        mutating func record(_ event: TerminalRecording.Event) {
            let droppedBefore = events.droppedCount
            guard events.append(event, weight: event.bytes.count), droppedBefore == 0 else { return }
            notices.append(TerminalNotice(text:
                "the recording reached the output limit (\(events.limit) bytes): its oldest events are dropped"))
        }

        /// The recording as it is now: the events kept, and how many were dropped.
        var recording: TerminalRecording {
            var recording = recordingHeader
            recording.events = Array(events.elements)
            recording.droppedEventCount = events.droppedCount
            recording.droppedByteCount = events.droppedBytes
            return recording
        }

        static func seconds(since launchUptime: UInt64) -> Double {
            Double(MonotonicClock.nanoseconds() &- launchUptime) / 1e9
        }
    }

    let state: Locked<State>

    /// The pending waits, on the event loop. A stability wait's timer is cancelled whenever the
    /// wait leaves the table.
    let waiters = WaiterTable<PendingWait, WaitOutcome>(didRemove: { $0.stableTimer?.cancel() })

    /// The child's exit, reported by the loop.
    let exit = ChildExit()
    /// The teardown, started once; `terminate` waits for it, `terminated` awaits it.
    let termination = Termination()

    init(pid: Int32, master: Int32, configuration: TerminalSession.Configuration, executable: String, term: String?) {
        self.pid = pid
        self.master = master
        self.configuration = configuration
        self.executable = executable
        let now = MonotonicClock.nanoseconds()
        self.launchUptime = now
        let terminal = Terminal(cols: configuration.size.cols, rows: configuration.size.rows)
        terminal.theme = configuration.theme
        let responses = Responses()
        // Called inside `feed`, so with the lock held.
        terminal.onResponse = { [responses] bytes in responses.bytes += bytes }
        state = Locked(State(
            terminal: terminal, responses: responses, size: configuration.size,
            recordingHeader: TerminalRecording(size: configuration.size, startDate: Date(), term: term),
            events: BoundedLog(limit: configuration.outputLimit),
            lastOutputUptime: now))
        waiters.describeTimeouts(with: self) { $0.timeoutError(for: $1) }
    }

    /// Registers the master and the child with the event loop (on the loop, so that no
    /// handler runs before its watch is in the state).
    func start() {
        EventLoop.shared.execute { [self] in
            exit.whenReaped { [self] status in reaped(status) }
            let watch = EventLoop.shared.watch(master, for: .readable) { [self] events in masterEvents(events) }
            state.withLock { $0.watch = watch }
            exit.watch(pid)
        }
    }

    var uptimeSinceLaunch: Double { State.seconds(since: launchUptime) }

    // MARK: - Queries

    func snapshot() -> ScreenSnapshot { state.withLock { $0.snapshot() } }
    var modes: TerminalModes { state.withLock { $0.terminal.modes } }
    /// The modes and the screen at the same moment (a mouse gesture reads both).
    var modesAndScreen: (TerminalModes, ScreenSnapshot) { state.withLock { ($0.terminal.modes, $0.snapshot()) } }
    var recording: TerminalRecording { state.withLock { $0.recording } }
    var recentOutput: [UInt8] { state.withLock { $0.tail.last($0.tail.capacity) } }
    var printedText: PrintedText { state.withLock { $0.terminal.printedText } }
    var currentOutputCursor: Int { state.withLock { $0.outputCursor } }
    /// The printed text after the output cursor, as a stream; the cursor does not move.
    var outputAfterCursor: String { state.withLock { $0.terminal.printedText.text(from: $0.outputCursor) } }
    var currentScreenHorizon: Int { state.withLock { $0.screenHorizon } }

    /// Moves the screen horizon forward to `scrolledOff` (never back): a screen wait matched.
    func advanceScreenHorizon(to scrolledOff: Int) {
        state.withLock { $0.screenHorizon = max($0.screenHorizon, scrolledOff) }
    }

    var currentCommandHorizon: Int { state.withLock { $0.commandHorizon } }

    /// Moves the command horizon past a command a wait saw finish (never back).
    func advanceCommandHorizon(to number: Int) {
        state.withLock { $0.commandHorizon = max($0.commandHorizon, number) }
    }

    /// Moves the output cursor to the end of what was printed so far; returns that text.
    func consumeOutput() -> String {
        state.withLock { state in
            let printed = state.terminal.printedText
            let text = printed.text(from: state.outputCursor)
            state.outputCursor = printed.endOffset
            return text
        }
    }

    var currentSize: TerminalSize { state.withLock { $0.size } }
    var currentExitStatus: ExitStatus? { state.withLock { $0.exitStatus } }

    /// Whether the child was reaped, the loop no longer watches the master and it is closed.
    var isFullyReleased: Bool { state.withLock { $0.reapedStatus != nil && $0.watch == nil && $0.isClosed } }

    // MARK: - Input

    /// Writes `bytes` to the program now, from the caller, if the pty accepts them (no hop
    /// through the loop); queues the rest for the loop, which writes it as the program reads.
    /// Never blocks.
    func send(_ bytes: [UInt8]) throws(TerminalSessionError) {
        guard !bytes.isEmpty else { return }
        enum Outcome { case written, queued(askLoop: Bool), closed, failed(PosixError) }
        let outcome = state.withLock { state -> Outcome in
            guard !state.isClosed else { return .closed }
            state.recordInput(bytes, launchUptime: launchUptime)
            state.screenHorizon = state.terminal.scrolledOffCount
            if let last = state.terminal.shellCommands.last {
                state.commandHorizon = last.phase == .finished ? last.number + 1 : last.number
            }
            if state.outgoing.isEmpty {
                let written: Int
                do throws(SystemError) {
                    written = try Posix.write(master, bytes: bytes) ?? 0
                } catch {
                    return .failed(error)
                }
                if written == bytes.count { return .written }
                state.outgoing += bytes[written...]
            } else {
                state.outgoing += bytes
            }
            defer { state.writeInterest = true }
            return .queued(askLoop: !state.writeInterest)
        }
        switch outcome {
        case .written, .queued(askLoop: false): return
        case .queued(askLoop: true): EventLoop.shared.execute { [self] in updateWriteInterest() }
        case .closed: throw .sessionTerminated
        case .failed(let error): throw .ioFailed(error)
        }
    }

    // MARK: - Resize

    /// Tells the pty the size, in cells and in pixels (``CellPixelSize/standard`` a cell, as the
    /// terminal answers `CSI 14 t` and reports pixel mouse events).
    static func setWindowSize(_ master: Int32, _ size: TerminalSize) throws(SystemError) {
        let cell = CellPixelSize.standard
        try Posix.setWindowSize(master, cols: size.cols, rows: size.rows,
                                pixelWidth: size.cols * cell.width, pixelHeight: size.rows * cell.height)
    }

    func resize(_ newSize: TerminalSize) throws(TerminalSessionError) {
        guard newSize.cols >= 1, newSize.rows >= 1, newSize.cols <= Int(UInt16.max), newSize.rows <= Int(UInt16.max) else {
            throw .invalidConfiguration("terminal size \(newSize) is out of range")
        }
        let outcome = state.withLock { state -> Result<Void, TerminalSessionError> in
            guard !state.isClosed else { return .failure(.sessionTerminated) }
            do throws(SystemError) {
                try Self.setWindowSize(master, newSize)
            } catch {
                return .failure(.ioFailed(error))
            }
            release(&state, because: "by a resize")
            state.terminal.resize(cols: newSize.cols, rows: newSize.rows)
            state.screenGeneration += 1
            state.size = newSize
            state.record(.init(
                time: State.seconds(since: launchUptime), kind: .resize, bytes: Array("\(newSize.cols)x\(newSize.rows)".utf8)))
            return .success(())
        }
        try outcome.get()
        // The screen waits see the new screen on the loop, where they live.
        EventLoop.shared.execute { [self] in evaluate(state.withLock { screenChecks(&$0, waiters.conditions()) }) }
    }

    // MARK: - Terminate

    /// Starts the teardown once (later calls join it): ends the program's whole process group
    /// (SIGHUP and SIGTERM, then SIGKILL after `grace`), then stops reading and closes the
    /// master, all on the event loop.
    func startTerminating(grace: Duration) {
        guard termination.begin() else { return }
        ChildProcess.endProcessGroup(of: pid, signals: [SIGHUP, SIGTERM], signalLeaderToo: false, grace: grace, exit: exit) {
            [self] in stopReading()
        }
    }

    /// The teardown, waited for: blocks the caller (never the loop) until it is done.
    /// Idempotent: later calls return the first one's status.
    @discardableResult
    func terminate(grace: Duration) -> ExitStatus {
        startTerminating(grace: grace)
        return termination.wait(for: "TerminalSession.terminate()")
    }

    /// The teardown, awaited.
    @discardableResult
    func terminated(grace: Duration) async -> ExitStatus {
        startTerminating(grace: grace)
        return await termination.value()
    }
}
