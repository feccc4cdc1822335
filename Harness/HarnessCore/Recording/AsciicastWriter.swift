import Foundation

/// A chunk of terminal output at a time since the start of the recording.
package struct AsciicastOutputChunk: Sendable, Equatable {
    /// Seconds since the start.
    package var time: Double
    /// The bytes the program wrote.
    package var bytes: [UInt8]

    /// Creates a chunk.
    package init(time: Double, bytes: [UInt8]) {
        self.time = time
        self.bytes = bytes
    }
}

/// Builds a recording event by event, turning output bytes into text without splitting UTF-8
/// characters: an incomplete sequence at the end of a chunk waits for the next chunk; invalid
/// bytes become U+FFFD.
///
/// ```swift
/// var recorder = AsciicastRecorder(width: 80, height: 24)
/// recorder.output(bytes, at: 0.25)
/// let text = AsciicastWriter.encode(recorder.finish())
/// ```
package struct AsciicastRecorder: Sendable {
    private var cast: Asciicast
    private var pending: [UInt8] = []
    private var pendingTime = 0.0

    /// Starts a recording of a `width` x `height` terminal.
    package init(width: Int, height: Int, timestamp: Date? = nil, title: String? = nil, command: String? = nil,
                env: [String: String] = ["TERM": "xterm-256color"]) {
        cast = Asciicast(header: AsciicastHeader(
            width: width, height: height, timestamp: timestamp.map { Int($0.timeIntervalSince1970) },
            command: command, title: title, env: env
        ))
    }

    /// Adds output written by the program (text appears at the time its last byte arrived).
    package mutating func output(_ bytes: [UInt8], at time: Double) {
        var all = pending + bytes
        let keep = Self.incompleteSuffixLength(all)
        pending = Array(all.suffix(keep))
        all.removeLast(keep)
        if !all.isEmpty { append(.output, String(decoding: all, as: UTF8.self), at: time) }
        pendingTime = time
    }

    /// Adds what the user typed.
    package mutating func input(_ text: String, at time: Double) { flushAndAppend(.input, text, at: time) }

    /// Adds a resize.
    package mutating func resize(columns: Int, rows: Int, at time: Double) { flushAndAppend(.resize, "\(columns)x\(rows)", at: time) }

    /// Adds a marker (e.g. the flow line about to run).
    package mutating func marker(_ label: String, at time: Double) { flushAndAppend(.marker, label, at: time) }

    /// The recording so far (an unfinished UTF-8 sequence at the end is emitted as U+FFFD).
    package func finish() -> Asciicast {
        var copy = self
        copy.flush()
        return copy.cast
    }

    private mutating func flushAndAppend(_ kind: AsciicastEvent.Kind, _ data: String, at time: Double) {
        flush()
        append(kind, data, at: time)
    }

    private mutating func flush() {
        guard !pending.isEmpty else { return }
        append(.output, String(decoding: pending, as: UTF8.self), at: pendingTime)
        pending = []
    }

    private mutating func append(_ kind: AsciicastEvent.Kind, _ data: String, at time: Double) {
        // Times never go backwards, even if the caller's clock readings do.
        let time = max(time, cast.events.last?.time ?? 0, 0)
        cast.events.append(AsciicastEvent(time: time, kind: kind, data: data))
    }

    /// How many bytes at the end of `bytes` start a UTF-8 sequence that is not complete yet.
    static func incompleteSuffixLength(_ bytes: [UInt8]) -> Int {
        let count = bytes.count
        for back in 1...min(3, max(count, 1)) where back <= count {
            let byte = bytes[count - back]
            if byte & 0xC0 == 0x80 { continue }  // continuation byte: look further back
            let needed: Int
            switch byte {
            case 0xC2...0xDF: needed = 2
            case 0xE0...0xEF: needed = 3
            case 0xF0...0xF4: needed = 4
            default: return 0
            }
            return needed > back ? back : 0
        }
        return 0
    }
}

/// Prints recordings as asciicast v2 text.
package enum AsciicastWriter {
    /// A recording made of output chunks on a `width` x `height` terminal.
    package static func cast(chunks: [AsciicastOutputChunk], width: Int, height: Int, timestamp: Date? = nil) -> Asciicast {
        var recorder = AsciicastRecorder(width: width, height: height, timestamp: timestamp)
        for chunk in chunks { recorder.output(chunk.bytes, at: chunk.time) }
        return recorder.finish()
    }

    /// The file's text: the header line, then one line per event, each ending in a newline.
    package static func encode(_ cast: Asciicast) -> String {
        let header = cast.header
        var fields = ["\"version\": 2", "\"width\": \(header.width)", "\"height\": \(header.height)"]
        if let timestamp = header.timestamp { fields.append("\"timestamp\": \(timestamp)") }
        if let duration = header.duration { fields.append("\"duration\": \(seconds(duration))") }
        if let limit = header.idleTimeLimit { fields.append("\"idle_time_limit\": \(seconds(limit))") }
        if let command = header.command { fields.append("\"command\": \(json(command))") }
        if let title = header.title { fields.append("\"title\": \(json(title))") }
        if !header.env.isEmpty {
            let env = header.env.sorted { $0.key < $1.key }.map { "\(json($0.key)): \(json($0.value))" }
            fields.append("\"env\": {\(env.joined(separator: ", "))}")
        }
        var out = "{" + fields.joined(separator: ", ") + "}\n"
        for event in cast.events {
            out += "[\(seconds(event.time)), \"\(event.kind.rawValue)\", \(json(event.data))]\n"
        }
        return out
    }

    /// Writes the recording to `path` (atomically).
    package static func write(_ cast: Asciicast, to path: String) throws {
        try Data(encode(cast).utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// Seconds with microsecond precision, as asciinema writes them.
    static func seconds(_ value: Double) -> String { String(format: "%.6f", value) }

    /// A JSON string literal.
    static func json(_ text: String) -> String {
        let escaped = TextEscaping.map(text) { scalar in
            switch scalar {
            case "\u{8}": "\\b"
            case "\u{C}": "\\f"
            default:
                TextEscaping.backslashEscape(scalar)
                    ?? (TextEscaping.isControl(scalar) ? "\\u" + TextEscaping.hex(scalar.value, width: 4) : nil)
            }
        }
        return "\"" + escaped + "\""
    }
}
