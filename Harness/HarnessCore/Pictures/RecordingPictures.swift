import TerminalEmulator

/// Pictures of a recording (asciicast v2) replayed through the terminal emulator: an animated
/// GIF of the whole of it, or a PNG of the screen at a time.
///
/// A GIF frame is drawn every time the screen changed, at most once per ``Timing/frameInterval``
/// (the output of one interval shows as one frame), and before each input event (the screen a
/// key was pressed on, even when the program answered within the interval); each frame lasts until the next, a pause
/// at most ``Timing/maximumIdle`` (the recording's own `idle_time_limit` unless given) and at
/// least ``Timing/minimumDelay``, and the last frame ``Timing/finalHold``.
///
/// ```swift
/// let font = try UnifontFont.load()
/// let gif = RecordingPictures.gif(of: session.recording.asciicastRecording, font: font)
/// ```
package enum RecordingPictures {
    /// When the frames of a GIF are drawn and how long each shows.
    package struct Timing: Sendable, Equatable {
        /// The shortest time between two frames, in seconds.
        package var frameInterval = 0.04
        /// The longest a frame shows before the next, in seconds; nil for the recording's own
        /// limit (`idle_time_limit`), or none.
        package var maximumIdle: Double?
        /// The shortest a frame shows, in seconds: a demo of a fast program made readable.
        package var minimumDelay = 0.0
        /// How long the last frame shows before the animation loops, in seconds.
        package var finalHold = 2.0

        /// The timing of `harness run --gif`: a flow presses its keys within milliseconds, so
        /// each frame shows at least a quarter of a second.
        package static let flowRun = Timing(minimumDelay: 0.25)

        /// The default timing: 25 frames a second at most, pauses as recorded, 2 s on the end.
        package init(maximumIdle: Double? = nil, minimumDelay: Double = 0) {
            self.maximumIdle = maximumIdle
            self.minimumDelay = minimumDelay
        }
    }

    /// The animated GIF of `cast` and its frame count.
    package static func gif(
        of cast: Asciicast, font: UnifontFont, palette: TerminalPalette = .xterm, timing: Timing = Timing()
    ) -> (bytes: [UInt8], frames: Int) {
        let cols = cast.header.width, rows = cast.header.height
        var rasterizer = ScreenRasterizer(font: font, palette: palette)
        var gif = GIFEncoder(width: cols * ScreenRasterizer.cellWidth, height: rows * ScreenRasterizer.cellHeight)
        let terminal = Terminal(cols: cols, rows: rows)
        let idle = timing.maximumIdle ?? cast.header.idleTimeLimit
        var shown: (raster: Raster, time: Double)?
        var batchStart: Double?
        func draw(at time: Double) {
            let raster = rasterizer.raster(of: terminal.snapshot())
            if let shown {
                var seconds = time - shown.time
                if let idle { seconds = min(seconds, idle) }
                seconds = max(seconds, timing.minimumDelay)
                gif.add(shown.raster, delay: max(2, Int((seconds * 100).rounded())))
            }
            shown = (raster, time)
        }
        for event in cast.events {
            guard let change = change(of: event) else {
                // A key pressed: the screen before it is a frame of its own, however soon.
                if event.kind == .input, let start = batchStart {
                    draw(at: start)
                    batchStart = nil
                }
                continue
            }
            if let start = batchStart, event.time - start >= timing.frameInterval {
                draw(at: start)
                batchStart = nil
            }
            change(terminal)
            if batchStart == nil { batchStart = event.time }
        }
        if let batchStart { draw(at: batchStart) }
        if shown == nil { draw(at: 0) }
        if let shown { gif.add(shown.raster, delay: max(2, Int((timing.finalHold * 100).rounded()))) }
        return (gif.encoded(), gif.frameCount)
    }

    /// The screen of `cast` at `seconds` (every event at or before it), or at its end when nil.
    package static func screen(of cast: Asciicast, at seconds: Double? = nil) -> ScreenSnapshot {
        let terminal = Terminal(cols: cast.header.width, rows: cast.header.height)
        for event in cast.events {
            if let seconds, event.time > seconds { break }
            change(of: event)?(terminal)
        }
        return terminal.snapshot()
    }

    /// The PNG of ``screen(of:at:)``.
    package static func png(of cast: Asciicast, at seconds: Double? = nil, font: UnifontFont, palette: TerminalPalette = .xterm) -> [UInt8] {
        var rasterizer = ScreenRasterizer(font: font, palette: palette)
        return PNGEncoder.encode(rasterizer.raster(of: screen(of: cast, at: seconds)))
    }

    /// What `event` does to the screen: feed output or resize; nil for input and markers.
    private static func change(of event: AsciicastEvent) -> ((Terminal) -> Void)? {
        switch event.kind {
        case .output:
            let bytes = Array(event.data.utf8)
            return { $0.feed(bytes) }
        case .resize:
            guard let size = TerminalSize(parsing: event.data) else { return nil }
            return { $0.resize(cols: size.cols, rows: size.rows) }
        case .input, .marker:
            return nil
        }
    }
}
