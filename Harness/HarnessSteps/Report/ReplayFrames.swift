import Foundation
import HarnessCore
import TerminalEmulator

/// The frames of a session's replay, drawn by the harness's own emulator from the recording:
/// the output and resize events are fed to a ``Terminal`` of the recorded size, and the screen
/// is taken at most every `minimumGap` seconds of the recording, at each step boundary, and
/// before each input (the screen the keys were typed at). Consecutive equal screens give one
/// frame.
///
/// ```swift
/// let frames = ReplayFrames.frames(of: session.recording, boundaries: [0.4, 1.2])
/// ```
public enum ReplayFrames {
    /// The screens of `recording` with their times (seconds since the recording's start).
    ///
    /// - Parameters:
    ///   - boundaries: times (same origin) at which the screen is always taken, e.g. step ends.
    ///   - minimumGap: the shortest time between two frames otherwise (1/30 s by default).
    ///   - limit: at most this many frames; a longer recording takes them further apart.
    package static func frames(of recording: TerminalRecording, boundaries: [Double] = [], minimumGap: Double = 1.0 / 30,
                              limit: Int = 600) -> [(time: Double, screen: ScreenSnapshot)] {
        // Inputs are kept as boundaries: they are timed by the same clock as the output, where
        // step boundaries come from the flow's clock and, on a loaded machine, may land after
        // the output that followed them.
        let events = recording.events
        guard let last = events.last(where: { $0.kind != .input }) else { return [] }
        let gap = max(minimumGap, last.time / Double(max(1, limit)))
        let terminal = Terminal(cols: recording.size.cols, rows: recording.size.rows, scrollbackLimit: 0,
                                printedTextCapacity: 1024)
        var frames: [(time: Double, screen: ScreenSnapshot)] = []
        var pendingSince: Double?  // the time of the first event fed since the last frame
        var lastFed = 0.0
        var marks = boundaries.filter { $0 >= 0 }.sorted()[...]

        func take(at time: Double) {
            pendingSince = nil
            let screen = terminal.snapshot()
            if let previous = frames.last, previous.screen == screen { return }
            frames.append((time, screen))
        }

        for event in events {
            while let mark = marks.first, mark < event.time {
                marks.removeFirst()
                if pendingSince != nil { take(at: lastFed) }
            }
            if let since = pendingSince, event.time - since >= gap { take(at: lastFed) }
            switch event.kind {
            case .output:
                terminal.feed(event.bytes)
            case .resize:
                let parts = String(decoding: event.bytes, as: UTF8.self).split(separator: "x").compactMap { Int($0) }
                if parts.count == 2, parts[0] > 0, parts[1] > 0 { terminal.resize(cols: parts[0], rows: parts[1]) }
            case .input:
                if pendingSince != nil { take(at: lastFed) }
                continue
            }
            if pendingSince == nil { pendingSince = event.time }
            lastFed = event.time
        }
        if pendingSince != nil { take(at: lastFed) }
        return frames
    }
}
