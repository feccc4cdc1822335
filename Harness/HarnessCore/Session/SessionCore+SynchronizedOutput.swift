import Foundation
import TerminalEmulator
import HarnessSystem

/// Synchronized output (mode 2026) on the session's side: the emulator holds the last
/// complete frame and keeps no clock; the session arms the safety limit
/// (``TerminalSession/Configuration/synchronizedOutputLimit``) on the event loop for each held
/// frame, releases the frame when it fires (or when the program exits), and notes each such
/// release (``TerminalNotice``) for the trace.
extension SessionCore {
    /// Arms the limit for the frame the terminal holds now (when it was not armed for it), or
    /// cancels it when no frame (or another one) is held. Called on the loop after every change
    /// of the terminal.
    func updateHeldFrameLimit(_ state: inout State) {
        let frame = state.heldFrame
        if let armed = state.heldFrameTimer, armed.frame != frame {
            EventLoop.shared.cancel(armed.timer)
            state.heldFrameTimer = nil
        }
        guard let frame, state.heldFrameTimer == nil, !state.isClosed else { return }
        let timer = EventLoop.shared.schedule(after: configuration.synchronizedOutputLimit) { [weak self] in
            self?.heldFrameLimitExpired(frame)
        }
        state.heldFrameTimer = (timer, frame)
    }

    /// The limit of `frame` ran out (on the loop): if the terminal still holds it, the update
    /// is shown, noted, and the screen waits see it.
    private func heldFrameLimitExpired(_ frame: Int) {
        let checks = state.withValue { state -> ScreenChecks? in
            if state.heldFrameTimer?.frame == frame { state.heldFrameTimer = nil }
            guard state.heldFrame == frame, !state.isClosed else { return nil }
            release(&state, because: "by the \(TerminalSessionError.format(configuration.synchronizedOutputLimit)) limit")
            publish(&state)
            return screenChecks(&state, waiters.conditions())
        }
        evaluate(checks)
    }

    /// Shows the held frame's update (if one is held), with a notice saying why; cancels the
    /// limit. Returns whether a frame was held.
    @discardableResult
    func release(_ state: inout State, because reason: String) -> Bool {
        let frame = state.heldFrame
        if let armed = state.heldFrameTimer {
            EventLoop.shared.cancel(armed.timer)
            state.heldFrameTimer = nil
        }
        guard let frame, state.terminal.releaseHeldFrame() else { return false }
        state.screenGeneration += 1
        channel.withLock { $0.notices.append(TerminalNotice(
            text: "synchronized frame \(frame) released \(reason) (the program did not reset mode 2026)")) }
        return true
    }
}

extension SessionCore.State {
    /// The number of the synchronized frame the terminal holds (``Terminal/heldFrameCount``),
    /// nil when it holds none.
    var heldFrame: Int? { terminal.isHoldingFrame ? terminal.heldFrameCount : nil }
}
