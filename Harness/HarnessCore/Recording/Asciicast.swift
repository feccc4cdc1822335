/// An asciicast v2 recording: a header and timed events (the format `asciinema play` reads).
///
/// See <https://docs.asciinema.org/manual/asciicast/v2/>: the file is newline-delimited JSON,
/// the first line an object (`version`, `width`, `height`, ...), every other line an array
/// `[seconds, code, data]`.
package struct Asciicast: Sendable, Equatable {
    /// The header line.
    package var header: AsciicastHeader
    /// The events, in time order.
    package var events: [AsciicastEvent]

    /// Creates a recording.
    package init(header: AsciicastHeader, events: [AsciicastEvent] = []) {
        self.header = header
        self.events = events
    }

    /// The time of the last event (0 when there is none).
    package var duration: Double { events.last?.time ?? 0 }
}

/// The first line of an asciicast v2 file.
package struct AsciicastHeader: Sendable, Equatable {
    /// Always 2.
    package var version: Int
    /// Terminal columns at the start.
    package var width: Int
    /// Terminal rows at the start.
    package var height: Int
    /// Unix time of the start, seconds.
    package var timestamp: Int?
    /// Total duration, seconds, if recorded.
    package var duration: Double?
    /// Idle time limit for playback, seconds.
    package var idleTimeLimit: Double?
    /// The recorded command.
    package var command: String?
    /// A title.
    package var title: String?
    /// Environment (asciinema records `SHELL` and `TERM`).
    package var env: [String: String]

    /// Creates a header.
    package init(width: Int, height: Int, timestamp: Int? = nil, duration: Double? = nil, idleTimeLimit: Double? = nil,
                command: String? = nil, title: String? = nil, env: [String: String] = [:]) {
        self.version = 2
        self.width = width
        self.height = height
        self.timestamp = timestamp
        self.duration = duration
        self.idleTimeLimit = idleTimeLimit
        self.command = command
        self.title = title
        self.env = env
    }
}

/// One timed event.
package struct AsciicastEvent: Sendable, Equatable {
    /// Seconds since the start.
    package var time: Double
    /// What happened.
    package var kind: Kind
    /// Output or input text, `COLSxROWS` for a resize, a label for a marker.
    package var data: String

    /// Creates an event.
    package init(time: Double, kind: Kind, data: String) {
        self.time = time
        self.kind = kind
        self.data = data
    }

    /// The event codes of asciicast v2.
    package enum Kind: String, Sendable, CaseIterable {
        /// `o`: the program wrote to the terminal.
        case output = "o"
        /// `i`: the user typed.
        case input = "i"
        /// `r`: the terminal was resized (`data` is `COLSxROWS`).
        case resize = "r"
        /// `m`: a marker (a chapter, or where a flow step began).
        case marker = "m"
    }
}
