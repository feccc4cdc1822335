import HarnessCore
import HarnessSteps

/// What replaying a recording does to a terminal, in order.
package enum AsciicastReplayStep: Sendable, Equatable {
    /// Feed these bytes to the emulator (consecutive output events joined).
    case output([UInt8])
    /// Resize the emulator.
    case resize(TerminalSize)
}

extension Asciicast {
    /// The steps that rebuild the screen as it was at `seconds` (every event at or before it),
    /// or at the end when nil. Input and marker events do not change the screen and are left out.
    ///
    /// ```swift
    /// let terminal = Terminal(cols: cast.header.width, rows: cast.header.height)
    /// for step in cast.replaySteps(upTo: 3.5) {
    ///     switch step {
    ///     case .output(let bytes): terminal.feed(bytes)
    ///     case .resize(let size): terminal.resize(cols: size.cols, rows: size.rows)
    ///     }
    /// }
    /// ```
    package func replaySteps(upTo seconds: Double? = nil) -> [AsciicastReplayStep] {
        var steps: [AsciicastReplayStep] = []
        for event in events {
            if let seconds, event.time > seconds { break }
            switch event.kind {
            case .output:
                let bytes = Array(event.data.utf8)
                if case .output(let previous)? = steps.last {
                    steps[steps.count - 1] = .output(previous + bytes)
                } else {
                    steps.append(.output(bytes))
                }
            case .resize:
                if let size = TerminalSize(parsing: event.data) { steps.append(.resize(size)) }
            case .input, .marker:
                continue
            }
        }
        return steps
    }

    /// All output bytes up to `seconds` (or all), joined (resizes ignored).
    package func outputBytes(upTo seconds: Double? = nil) -> [UInt8] {
        replaySteps(upTo: seconds).flatMap { step -> [UInt8] in
            if case .output(let bytes) = step { return bytes }
            return []
        }
    }

    /// The terminal size at `seconds` (or at the end): the header's, changed by resizes.
    package func size(at seconds: Double? = nil) -> TerminalSize {
        var size = TerminalSize(cols: header.width, rows: header.height)
        for case .resize(let newSize) in replaySteps(upTo: seconds) { size = newSize }
        return size
    }
}
