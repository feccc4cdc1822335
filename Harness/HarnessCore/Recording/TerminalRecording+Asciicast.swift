import Foundation

extension TerminalRecording {
    /// The recording as an asciicast v2 value: output, input and resize events with their times.
    /// When the session dropped older events (its output limit), a marker at the first kept
    /// event says how many and how many bytes, so a replay is known to start mid-session.
    ///
    /// A UTF-8 character split across two output chunks is carried to the next one, so every
    /// event holds valid text (see ``AsciicastRecorder``).
    package var asciicastRecording: Asciicast {
        var recorder = AsciicastRecorder(
            width: size.cols, height: size.rows, timestamp: startDate,
            env: term.map { ["TERM": $0] } ?? [:]
        )
        if droppedEventCount > 0 {
            recorder.marker(Self.droppedMarker(events: droppedEventCount, bytes: droppedByteCount), at: events.first?.time ?? 0)
        }
        for event in events {
            switch event.kind {
            case .output:
                recorder.output(event.bytes, at: event.time)
            case .input:
                recorder.input(String(decoding: event.bytes, as: UTF8.self), at: event.time)
            case .resize:
                let size = String(decoding: event.bytes, as: UTF8.self).split(separator: "x").compactMap { Int($0) }
                if size.count == 2 { recorder.resize(columns: size[0], rows: size[1], at: event.time) }
            }
        }
        return recorder.finish()
    }

    /// The marker's label: `harness: 12 older events (49152 bytes) were dropped (output limit)`.
    static func droppedMarker(events: Int, bytes: Int) -> String {
        "harness: \(events) older event\(events == 1 ? "" : "s") (\(bytes) bytes) were dropped (output limit)"
    }

    /// The recording as the text of an asciicast v2 file (https://docs.asciinema.org/manual/asciicast/v2/):
    /// a header line, then one `[time, "o"|"i"|"r", data]` line per event.
    package func asciicast() -> String {
        AsciicastWriter.encode(asciicastRecording)
    }

    /// Writes ``asciicast()`` to a file.
    package func writeAsciicast(toFile path: String) throws {
        try AsciicastWriter.write(asciicastRecording, to: path)
    }
}
