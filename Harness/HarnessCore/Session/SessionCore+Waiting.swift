import Foundation
import TerminalEmulator
import HarnessSystem
import Synchronization

/// The session's waits: what satisfies each kind (a screen, a quiet period, the exit, output
/// after the stream cursor) and what each is told when the program ends or time runs out.
/// Registration, the timeout timer, cancellation and the exactly-once resumption are the
/// `WaiterTable`'s (`waiters`).
extension SessionCore {
    /// What a pending wait waits for.
    enum WaitCondition: Sendable {
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

    /// A wait as the table keeps it: its condition and, for a stability wait, the loop timer
    /// that fires when the quiet period may be over (cancelled when the wait leaves the table).
    struct PendingWait {
        let condition: WaitCondition
        var stableTimer: StableTimer?
        /// For a screen wait: the last screen its predicate was checked against and found
        /// wanting (what its timeout shows).
        var checked: CheckedScreen?
    }

    /// The last screen a screen wait checked and that did not satisfy it: kept with its
    /// generation, so that checks finishing out of order keep the newest. On the loop, with
    /// the wait.
    final class CheckedScreen: Sendable {
        private let last = LoopBound<(generation: UInt64, screen: ScreenSnapshot)?>(nil, on: .shared)

        func record(_ screen: ScreenSnapshot, generation: UInt64) {
            last.withValue { last in
                if last == nil || last!.generation <= generation { last = (generation, screen) }
            }
        }

        var screen: ScreenSnapshot? { last.value?.screen }
    }

    /// The loop timer of one stability wait, replaced each time it finds output came since it
    /// was armed; cancelled for good when the wait leaves the table. On the loop, with the wait.
    final class StableTimer: Sendable {
        private let state = LoopBound<(timer: EventLoop.Timer?, cancelled: Bool)>((nil, false), on: .shared)

        /// Keeps `timer` as the current one (cancels it instead when the wait already left).
        func set(_ timer: EventLoop.Timer) {
            if state.value.cancelled {
                EventLoop.shared.cancel(timer)
            } else {
                state.value.timer = timer
            }
        }

        func cancel() {
            state.value.cancelled = true
            if let timer = state.value.timer { EventLoop.shared.cancel(timer) }
            state.value.timer = nil
        }
    }

    typealias Waiter = WaiterTable<PendingWait, WaitOutcome>.Waiter

    /// Registers a wait and suspends until it resolves: when satisfied, on timeout, on exit or
    /// on cancellation (`CancellationError`). A timeout or exit error names `location`, where
    /// the wait was written.
    func wait(description: String, condition: WaitCondition, timeout: Duration, location: SourceCodeLocation) async throws -> WaitOutcome {
        let start = Date()
        do {
            let outcome: WaitOutcome
            switch precheck(condition) {
            case .satisfied(let screen):
                outcome = .screen(screen)
            case .onNextWakeUp(let seen):
                outcome = try await waiters.wait(
                    description: description, timeout: timeout,
                    wakeNow: { [self] in published.withLock { $0.publication } != seen },
                    admit: { [self] registration in admit(registration, condition) })
            case .now:
                outcome = try await waiters.wait(description: description, timeout: timeout) { [self] registration in
                    admit(registration, condition)
                }
            }
            journalWait(description, location: location, start: start, problem: nil)
            return outcome
        } catch let error as TerminalSessionError {
            journalWait(description, location: location, start: start, problem: error.summary)
            throw error.at(location)
        } catch {
            journalWait(description, location: location, start: start, problem: "\(error)")
            throw error
        }
    }

    /// What the published view says about a wait before it goes to the loop.
    private enum Precheck {
        /// A screen wait whose predicate holds for the published screen: done, without the loop.
        case satisfied(ScreenSnapshot)
        /// A screen or output wait the published view does not satisfy: only output can, and
        /// its arrival wakes the loop, which admits the wait then (the view was publication
        /// `seen`; a newer one means the output may be there, and wakes the loop at once).
        case onNextWakeUp(seen: UInt64)
        /// Admitted on the loop at once.
        case now
    }

    private func precheck(_ waitCondition: WaitCondition) -> Precheck {
        switch waitCondition {
        case .screen(let predicate):
            let view = view
            guard view.exitStatus == nil else { return .now }
            return predicate(view.screen) ? .satisfied(view.screen) : .onNextWakeUp(seen: view.publication)
        case .output(let pattern):
            // Only worth matching twice when the admission may wait for the loop's next wake-up.
            guard EventLoop.shared.defersWakeUps.load(ordering: .relaxed) else { return .now }
            let view = view
            guard view.exitStatus == nil,
                  pattern.firstMatch(in: view.printedText, after: effectiveCursor(view.outputCursor)) == nil else { return .now }
            return .onNextWakeUp(seen: view.publication)
        case .stable, .exit:
            return .now
        }
    }

    /// Records a wait in the journal, with the screen after it.
    private func journalWait(_ description: String, location: SourceCodeLocation, start: Date, problem: String?) {
        journal.record(SessionJournal.Entry(
            text: "wait for \(description)", file: "\(location.fileID)", line: location.line == 0 ? nil : Int(location.line),
            start: start, end: Date(), problem: problem, screen: snapshot()))
    }

    /// Resolves a new wait at once when the program has ended or the output already holds its
    /// match; otherwise inserts it (with a stability wait's timer) and, for a screen wait,
    /// checks the current screen.
    private func admit(_ registration: WaiterTable<PendingWait, WaitOutcome>.Registration, _ waitCondition: WaitCondition) {
        enum Admission {
            case ended(Result<WaitOutcome, any Error>?, finalScreen: ScreenSnapshot, status: ExitStatus, output: String)
            case matched(OutputMatch)
            /// A screen wait: its predicate is checked against the current screen first, and
            /// the wait inserted only when it does not hold (nothing changes the screen
            /// meanwhile: this runs on the loop).
            case check(generation: UInt64, screen: ScreenSnapshot)
            case inserted
        }
        let admission = state.withValue { state -> Admission in
            if let status = state.exitStatus {
                let finalScreen = state.snapshot()
                let outcome = outcomeAfterExit(
                    &state, waitCondition, description: registration.description, timeout: registration.timeout, status: status,
                    finalScreen: finalScreen)
                publish(&state)
                return .ended(outcome, finalScreen: finalScreen, status: status, output: outputTail(state))
            }
            var pending = PendingWait(condition: waitCondition)
            switch waitCondition {
            case .screen:
                return .check(generation: state.screenGeneration, screen: state.snapshot())
            case .stable(let quiet, let registered):
                let id = registration.id
                let stableTimer = StableTimer()
                stableTimer.set(EventLoop.shared.schedule(at: registered &+ quiet) { [weak self] in self?.stableTimerFired(id) })
                pending.stableTimer = stableTimer
            case .exit:
                break
            case .output(let pattern):
                if let match = pattern.firstMatch(in: state.terminal.printedText, after: effectiveCursor(state.outputCursor)) {
                    state.outputCursor = match.range.upperBound
                    publish(&state)
                    return .matched(match)
                }
            }
            waiters.insert(registration, pending)
            return .inserted
        }
        switch admission {
        case .ended(let outcome, let finalScreen, let status, let output):
            if case .screen(let predicate) = waitCondition {
                // The caller's predicate runs outside the access to the state.
                registration.resume(with: predicate(finalScreen) ? .success(.screen(finalScreen)) : .failure(
                    Self.exited(registration.description, registration.timeout, status: status, screen: finalScreen, output: output)))
            } else {
                registration.resume(with: outcome!)
            }
        case .matched(let match):
            registration.resume(returning: .output(match))
        case .check(let generation, let screen):
            guard case .screen(let predicate) = waitCondition else { return }
            if predicate(screen) {
                registration.resume(returning: .screen(screen))
            } else {
                let checked = CheckedScreen()
                checked.record(screen, generation: generation)
                waiters.insert(registration, PendingWait(condition: waitCondition, checked: checked))
            }
        case .inserted:
            break
        }
    }

    /// What a wait registered after the program ended gets: its outcome if the final output
    /// holds it, else `exitedWhileWaiting`; nil for a screen wait, whose predicate the caller
    /// runs outside the access to the state.
    private func outcomeAfterExit(
        _ state: inout State, _ waitCondition: WaitCondition, description: String, timeout: Duration?, status: ExitStatus,
        finalScreen: ScreenSnapshot
    ) -> Result<WaitOutcome, any Error>? {
        switch waitCondition {
        case .exit:
            return .success(.exit(status))
        case .stable:
            return .success(.screen(finalScreen))
        case .screen:
            return nil
        case .output(let pattern):
            if let match = pattern.firstMatch(in: state.terminal.printedText, after: effectiveCursor(state.outputCursor)) {
                state.outputCursor = match.range.upperBound
                return .success(.output(match))
            }
            return .failure(Self.exited(description, timeout, status: status, screen: finalScreen, output: outputTail(state)))
        }
    }

    /// The printed text after the output cursor, for failure messages (on the loop).
    func outputTail(_ state: State) -> String { state.terminal.printedText.tail(after: effectiveCursor(state.outputCursor)) }

    // MARK: - Satisfying waits

    /// The current screen (and its generation) and the screen waits to evaluate against it.
    typealias ScreenChecks = (
        generation: UInt64, screen: ScreenSnapshot,
        predicates: [(id: UInt64, predicate: @Sendable (ScreenSnapshot) -> Bool, checked: CheckedScreen?)])

    /// The current screen and the screen waits to evaluate against it (nil when none).
    func screenChecks(_ state: inout State, _ pending: [(id: UInt64, condition: PendingWait)]) -> ScreenChecks? {
        var predicates: [(id: UInt64, predicate: @Sendable (ScreenSnapshot) -> Bool, checked: CheckedScreen?)] = []
        for (id, wait) in pending {
            if case .screen(let predicate) = wait.condition { predicates.append((id, predicate, wait.checked)) }
        }
        guard !predicates.isEmpty else { return nil }
        return (state.screenGeneration, state.snapshot(), predicates)
    }

    /// Runs predicates outside the access to the state (they are the caller's code) and resolves the satisfied;
    /// the others keep the screen as the last one they checked.
    func evaluate(_ checks: ScreenChecks?) {
        guard let (generation, screen, predicates) = checks else { return }
        for (id, predicate, checked) in predicates {
            if predicate(screen) {
                waiters.remove(id)?.resume(returning: .screen(screen))
            } else {
                checked?.record(screen, generation: generation)
            }
        }
    }

    /// Matches the pending output waits, oldest first, each after the cursor the previous one
    /// left, and removes the satisfied ones: the caller resumes them afterwards.
    func matchOutputWaiters(_ state: inout State) -> [(waiter: Waiter, outcome: OutputMatch)] {
        let printed = state.terminal.printedText
        var cursor = effectiveCursor(state.outputCursor)
        defer { state.outputCursor = cursor }
        return waiters.removeSatisfied { waiter -> OutputMatch? in
            guard case .output(let pattern) = waiter.condition.condition,
                  let match = pattern.firstMatch(in: printed, after: cursor) else { return nil }
            cursor = match.range.upperBound
            return match
        }
    }

    /// A stability wait's timer fired (on the loop): the wait is satisfied if nothing was
    /// written for its quiet period, else the timer is armed for the end of the new one.
    private func stableTimerFired(_ id: UInt64) {
        let outcome = state.withValue { state -> (Waiter, ScreenSnapshot)? in
            guard let wait = waiters.condition(of: id), case .stable(let quiet, let registered) = wait.condition else {
                return nil
            }
            let quietSince = max(state.lastOutputUptime, registered)
            if MonotonicClock.nanoseconds() &- quietSince < quiet {
                // Output arrived since the timer was armed: wait for the rest of the quiet period.
                wait.stableTimer?.set(EventLoop.shared.schedule(at: quietSince &+ quiet) { [weak self] in
                    self?.stableTimerFired(id)
                })
                return nil
            }
            let screen = state.snapshot()
            guard let waiter = waiters.remove(id) else { return nil }
            return (waiter, screen)
        }
        if let (waiter, screen) = outcome { waiter.resume(returning: .screen(screen)) }
    }

    // MARK: - Ending waits

    /// The program exited and its output was read: removes the waits the final screen and
    /// output decide, and returns what resumes them (and checks the screen waits' predicates),
    /// to run afterwards.
    func endingWaits(_ state: inout State, exit status: ExitStatus) -> () -> Void {
        let finalScreen = state.snapshot()
        var resolutions: [(Waiter, Result<WaitOutcome, any Error>)] = []
        var screenChecks: [(UInt64, @Sendable (ScreenSnapshot) -> Bool)] = []
        for (waiter, outcome) in waiters.removeSatisfied({ waiter -> WaitOutcome? in
            switch waiter.condition.condition {
            case .exit: .exit(status)
            case .stable: .screen(finalScreen)  // nothing can change the screen any more
            case .screen, .output: nil
            }
        }) {
            resolutions.append((waiter, .success(outcome)))
        }
        for (id, wait) in waiters.conditions() {
            if case .screen(let predicate) = wait.condition { screenChecks.append((id, predicate)) }
        }
        for (waiter, match) in matchOutputWaiters(&state) {
            resolutions.append((waiter, .success(.output(match))))
        }
        publish(&state)
        let unmatchedOutput = outputTail(state)
        let unmatched = waiters.removeAll { if case .output = $0.condition.condition { true } else { false } }
        for waiter in unmatched {
            resolutions.append((waiter, .failure(Self.exited(
                waiter.description, waiter.timeout, status: status, screen: finalScreen, output: unmatchedOutput))))
        }
        return { [self] in
            for (waiter, result) in resolutions { waiter.resume(with: result) }
            for (id, predicate) in screenChecks {
                if predicate(finalScreen) {
                    waiters.remove(id)?.resume(returning: .screen(finalScreen))
                } else if let waiter = waiters.remove(id) {
                    let output = self.state.withValue { self.outputTail($0) }
                    waiter.resume(throwing: Self.exited(
                        waiter.description, waiter.timeout, status: status, screen: finalScreen, output: output))
                }
            }
        }
    }

    /// What a wait that timed out is told: what it waited for, the framed screen (for a screen
    /// wait the one it last checked, never a newer one; for the others the screen at the
    /// deadline), the output after the stream cursor and the last bytes received.
    func timeoutError(for waiter: Waiter) -> TerminalSessionError {
        let checked = waiter.condition.checked?.screen
        let lastBytes = channel.withLock { $0.tail.last(456) }
        return state.withValue { state in
            .timeout(WaitFailure(
                awaited: waiter.description, limit: waiter.timeout ?? .zero, screen: checked ?? state.snapshot(),
                lastBytes: PrintableBytes.escape(PrintableBytes.lastAtBoundary(lastBytes, limit: 200)),
                output: outputTail(state)))
        }
    }

    /// What a wait the program's end decided is told: what it awaited and the final screen.
    private static func exited(
        _ description: String, _ timeout: Duration?, status: ExitStatus, screen: ScreenSnapshot, output: String
    ) -> TerminalSessionError {
        .exitedWhileWaiting(
            WaitFailure(awaited: description, limit: timeout ?? .zero, screen: screen, lastBytes: "", output: output), status: status)
    }
}
