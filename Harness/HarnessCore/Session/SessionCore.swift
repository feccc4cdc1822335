import Foundation
import Synchronization
import TerminalEmulator
import HarnessSystem

/// The engine behind a `TerminalSession`: owns the pty master, the emulator and the pending
/// waits.
///
/// No thread of its own, and its state lives on the event loop (`EventLoop.shared`), which
/// reads the master, writes queued input, reaps the child and runs the teardown:
/// - `state` (a ``LoopBound``): the emulator, the exit, the teardown's progress, the output
///   cursor; only the loop touches it. Tasks reach it by handing the loop a job (a wait's
///   admission, a resize).
/// - `published`: what synchronous readers see (the screen, the modes, the exit status, the
///   printed text), an immutable ``View`` the loop stores after each change, before it resumes
///   the waits that change satisfied. Only the loop writes it.
/// - `channel`: the pty's input side and the byte log. Input is written by the caller (no hop
///   through the loop) and recorded in the same step, so the log keeps input before the output
///   it caused; the loop records output there and writes what the pty did not take.
///
/// No body of one of these locks takes the other. This file holds the state, the queries,
/// input, resize and teardown; what runs on the loop is in `SessionCore+Reader.swift` (reading
/// the terminal, the exit, the end of reading), the waits in `SessionCore+Waiting.swift`.
///
/// The loop's handlers hold the core, never the public `TerminalSession`, so dropping the
/// session runs its `deinit`, which terminates the program and releases everything here.
final class SessionCore: TerminatingCore {
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
    /// parses, on the loop, and queued as input after each chunk.
    final class Responses {
        var bytes: [UInt8] = []
    }

    /// What only the loop touches.
    struct State {
        let terminal: Terminal
        let responses: Responses
        var size: TerminalSize
        var lastOutputUptime: UInt64
        /// Whether the program wrote anything yet (``TerminalSession/Configuration/onFirstOutput``).
        var wroteOutput = false
        /// Set when the child was reaped.
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
        /// The output stream's cursor as the loop moved it (an absolute offset in the printed
        /// text): output waits match only after it (and after `consumedUpTo`) and move it past
        /// each match (pexpect's consuming `expect`).
        var outputCursor = 0
        /// Bumped by every change of the screen model (output fed, resize).
        var screenGeneration: UInt64 = 0
        /// The last snapshot taken and the generation it shows: a snapshot is taken at most
        /// once per change, however many waits and publications look at it.
        var cachedSnapshot: (generation: UInt64, screen: ScreenSnapshot)?
        /// The loop timer of the synchronized output limit and the held frame it was armed for.
        var heldFrameTimer: (timer: EventLoop.Timer, frame: Int)?
        /// Called once with the exit status when the program has exited and its output is drained.
        var exitHandlers: [@Sendable (ExitStatus) -> Void] = []
        /// How many views the loop published.
        var publications: UInt64 = 0

        mutating func snapshot() -> ScreenSnapshot {
            if let cachedSnapshot, cachedSnapshot.generation == screenGeneration { return cachedSnapshot.screen }
            let screen = terminal.snapshot()
            cachedSnapshot = (screenGeneration, screen)
            return screen
        }
    }

    /// What synchronous readers see: stored by the loop after each change, never changed in
    /// place (a reader copies it out of `published` and reads its copy).
    struct View: Sendable {
        var screen: ScreenSnapshot
        var modes: TerminalModes
        var size: TerminalSize
        var exitStatus: ExitStatus?
        var printedText: PrintedText
        /// The loop's output cursor (the effective one is the larger of it and `consumedUpTo`).
        var outputCursor: Int
        /// Where input sent now puts the screen horizon and the command horizon.
        var scrolledOffCount: Int
        var commandHorizon: Int
        var lastAlternateScreen: ScreenSnapshot?
        /// The child was reaped, the loop no longer watches the master and it is closed.
        var isReleased: Bool
        /// Which publication this is (counted from 1): tells a reader whether the loop
        /// published since it last looked.
        var publication: UInt64 = 0
    }

    /// The pty's input side and the byte log: the caller writes input and records it here in
    /// one step; the loop records output and writes queued input here; readers copy the log.
    struct Channel {
        /// Set by the loop before it closes the master: nobody writes to it after.
        var isClosed = false
        /// Input not yet accepted by the pty (the program is not reading); the loop writes it
        /// when the master is writable.
        var outgoing: [UInt8] = []
        /// Whether the loop was asked to watch for writability (cleared when the queue drained).
        var writeInterest = false
        /// The recording's header (size, start, `TERM`); its events are `events`.
        let recordingHeader: TerminalRecording
        /// The recording's events, the newest up to the output limit.
        var events: BoundedLog<TerminalRecording.Event>
        var tail = OutputTail(capacity: 4096)
        /// What the terminal did on its own (synchronized frames released by the limit, the
        /// recording's limit reached).
        var notices: [TerminalNotice] = []

        mutating func recordInput(_ bytes: [UInt8], launchUptime: UInt64) {
            record(.init(time: SessionCore.seconds(since: launchUptime), kind: .input, bytes: bytes))
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
    }

    static func seconds(since launchUptime: UInt64) -> Double {
        Double(MonotonicClock.nanoseconds() &- launchUptime) / 1e9
    }

    let state: LoopBound<State>
    let published: Locked<View>
    let channel: Locked<Channel>
    /// How far the test moved the output cursor itself (`consumeOutput`); the loop's output
    /// waits start after it too.
    let consumedUpTo = Atomic<Int>(0)
    /// How many lines had scrolled off when input was last sent or a screen wait last
    /// matched: text and regex waits also search the lines that scrolled off since then.
    /// The test's alone (the loop never reads it).
    let screenHorizon = Atomic<Int>(0)
    /// The number of the first shell command `waitForCommand` may see finish: the one not yet
    /// finished when input was last sent, or the one after the last it saw finish. The test's.
    let commandHorizon = Atomic<Int>(0)

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
        // Called inside `feed`, on the loop.
        terminal.onResponse = { [responses] bytes in responses.bytes += bytes }
        published = Locked(View(
            screen: terminal.snapshot(), modes: terminal.modes, size: configuration.size, exitStatus: nil,
            printedText: terminal.printedText, outputCursor: 0, scrolledOffCount: 0, commandHorizon: 0,
            lastAlternateScreen: nil, isReleased: false))
        state = LoopBound(State(terminal: terminal, responses: responses, size: configuration.size, lastOutputUptime: now), on: .shared)
        channel = Locked(Channel(
            recordingHeader: TerminalRecording(size: configuration.size, startDate: Date(), term: term),
            events: BoundedLog(limit: configuration.outputLimit)))
        waiters.describeTimeouts(with: self) { $0.timeoutError(for: $1) }
    }

    /// Registers the master and the child with the event loop (on the loop, so that no
    /// handler runs before its watch is in the state).
    func start() {
        EventLoop.shared.execute { [self] in
            exit.whenReaped { [self] status in reaped(status) }
            let watch = EventLoop.shared.watch(master, for: .readable) { [self] events in masterEvents(events) }
            state.value.watch = watch
            exit.watch(pid)
        }
    }

    var uptimeSinceLaunch: Double { Self.seconds(since: launchUptime) }

    // MARK: - Publishing

    /// Stores what synchronous readers see (on the loop, after a change and before the waits
    /// it satisfied are resumed).
    func publish(_ state: inout State) {
        let terminal = state.terminal
        var commandHorizon = 0
        if let last = terminal.shellCommands.last {
            commandHorizon = last.phase == .finished ? last.number + 1 : last.number
        }
        let view = View(
            screen: state.snapshot(), modes: terminal.modes, size: state.size, exitStatus: state.exitStatus,
            printedText: terminal.printedText, outputCursor: state.outputCursor,
            scrolledOffCount: terminal.scrolledOffCount, commandHorizon: commandHorizon,
            lastAlternateScreen: terminal.lastAlternateScreen,
            isReleased: state.reapedStatus != nil && state.watch == nil && state.isClosed,
            publication: state.publications &+ 1)
        state.publications &+= 1
        published.withLock { $0 = view }
    }

    /// The output cursor in effect: the loop's or the test's own, whichever is further.
    func effectiveCursor(_ loopCursor: Int) -> Int { max(loopCursor, consumedUpTo.load(ordering: .acquiring)) }

    // MARK: - Queries

    var view: View { published.withLock { $0 } }
    func snapshot() -> ScreenSnapshot { published.withLock { $0.screen } }
    var modes: TerminalModes { published.withLock { $0.modes } }
    /// The modes and the screen at the same moment (a mouse gesture reads both).
    var modesAndScreen: (TerminalModes, ScreenSnapshot) { published.withLock { ($0.modes, $0.screen) } }
    var recording: TerminalRecording { channel.withLock { $0.recording } }
    var recentOutput: [UInt8] { channel.withLock { $0.tail.last($0.tail.capacity) } }
    var printedText: PrintedText { published.withLock { $0.printedText } }
    var currentOutputCursor: Int { effectiveCursor(published.withLock { $0.outputCursor }) }
    /// The printed text after the output cursor, as a stream; the cursor does not move.
    var outputAfterCursor: String {
        let view = view
        return view.printedText.text(from: effectiveCursor(view.outputCursor))
    }
    var currentScreenHorizon: Int { screenHorizon.load(ordering: .relaxed) }

    /// Moves the screen horizon forward to `scrolledOff` (never back): a screen wait matched.
    func advanceScreenHorizon(to scrolledOff: Int) {
        screenHorizon.max(scrolledOff, ordering: .relaxed)
    }

    var currentCommandHorizon: Int { commandHorizon.load(ordering: .relaxed) }

    /// Moves the command horizon past a command a wait saw finish (never back).
    func advanceCommandHorizon(to number: Int) {
        commandHorizon.max(number, ordering: .relaxed)
    }

    /// Moves the output cursor to the end of what was printed so far; returns that text.
    func consumeOutput() -> String {
        let view = view
        let text = view.printedText.text(from: effectiveCursor(view.outputCursor))
        consumedUpTo.max(view.printedText.endOffset, ordering: .releasing)
        return text
    }

    var currentSize: TerminalSize { published.withLock { $0.size } }
    var currentExitStatus: ExitStatus? { published.withLock { $0.exitStatus } }
    var lastAlternateScreen: ScreenSnapshot? { published.withLock { $0.lastAlternateScreen } }
    /// What the terminal did on its own so far (frames released by the limit), oldest first.
    var notices: [TerminalNotice] { channel.withLock { $0.notices } }

    /// Whether the child was reaped, the loop no longer watches the master and it is closed.
    var isFullyReleased: Bool { published.withLock { $0.isReleased } }

    /// The loop-bound state, read on the loop and handed to the awaiting task (for tests).
    func onLoop<T: Sendable>(_ body: @escaping @Sendable (inout State) -> T) async -> T {
        await EventLoop.shared.submit { [self] in state.withValue(body) }
    }

    // MARK: - Input

    /// Writes `bytes` to the program now, from the caller, if the pty accepts them (no hop
    /// through the loop); queues the rest for the loop, which writes it as the program reads.
    /// Never blocks.
    func send(_ bytes: [UInt8]) throws(TerminalSessionError) {
        guard !bytes.isEmpty else { return }
        let (scrolledOff, horizon) = published.withLock { ($0.scrolledOffCount, $0.commandHorizon) }
        enum Outcome { case written, queued(askLoop: Bool), closed, failed(PosixError) }
        let outcome = channel.withLock { channel -> Outcome in
            guard !channel.isClosed else { return .closed }
            channel.recordInput(bytes, launchUptime: launchUptime)
            if channel.outgoing.isEmpty {
                let written: Int
                do throws(SystemError) {
                    written = try Posix.write(master, bytes: bytes) ?? 0
                } catch {
                    return .failed(error)
                }
                if written == bytes.count { return .written }
                channel.outgoing += bytes[written...]
            } else {
                channel.outgoing += bytes
            }
            defer { channel.writeInterest = true }
            return .queued(askLoop: !channel.writeInterest)
        }
        if case .closed = outcome { throw .sessionTerminated }
        screenHorizon.store(scrolledOff, ordering: .relaxed)
        commandHorizon.store(horizon, ordering: .relaxed)
        switch outcome {
        case .written, .queued(askLoop: false), .closed: return
        case .queued(askLoop: true): EventLoop.shared.execute { [self] in updateWriteInterest() }
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

    /// Resizes the pty and the screen model on the loop, one after the other (the program's
    /// redraw for the new size is read after the model was resized), and awaits it: the screen,
    /// the size and the waits show the new size on return, and input sent next finds the
    /// program at that size.
    func resize(_ newSize: TerminalSize) async throws(TerminalSessionError) {
        try Self.checkSize(newSize)
        try await EventLoop.shared.submit { [self] in applyResize(newSize) }.get()
    }

    /// ``resize(_:)`` without awaiting it (for a caller that cannot await): the loop resizes
    /// next, before the waits that follow begin; the screen shows it once it has.
    func startResizing(_ newSize: TerminalSize) throws(TerminalSessionError) {
        try Self.checkSize(newSize)
        guard !channel.withLock({ $0.isClosed }) else { throw .sessionTerminated }
        EventLoop.shared.execute { [self] in _ = applyResize(newSize) }
    }

    private static func checkSize(_ newSize: TerminalSize) throws(TerminalSessionError) {
        guard newSize.cols >= 1, newSize.rows >= 1, newSize.cols <= Int(UInt16.max), newSize.rows <= Int(UInt16.max) else {
            throw .invalidConfiguration("terminal size \(newSize) is out of range")
        }
    }

    /// On the loop: the pty's size, the screen model, the recording, the view, then the
    /// screen waits.
    private func applyResize(_ newSize: TerminalSize) -> Result<Void, TerminalSessionError> {
        let outcome = state.withValue { state -> Result<ScreenChecks?, TerminalSessionError> in
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
            channel.withLock { $0.record(.init(
                time: Self.seconds(since: launchUptime), kind: .resize, bytes: Array("\(newSize.cols)x\(newSize.rows)".utf8))) }
            publish(&state)
            return .success(screenChecks(&state, waiters.conditions()))
        }
        switch outcome {
        case .success(let checks):
            evaluate(checks)
            return .success(())
        case .failure(let error):
            return .failure(error)
        }
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

    /// What a caller blocked on the loop was doing (``TerminatingCore``).
    var terminateOperation: String { "TerminalSession.terminate()" }
}
