/// An asciicast v2 recording: a header and timed events (the format `asciinema play` reads).
///
/// See <https://docs.asciinema.org/manual/asciicast/v2/>: the file is newline-delimited JSON,
/// the first line an object (`version`, `width`, `height`, ...), every other line an array
/// `[seconds, code, data]`.
public struct Asciicast: Sendable, Equatable {
    /// The header line.
    public var header: AsciicastHeader
    /// The events, in time order.
    public var events: [AsciicastEvent]

    /// Creates a recording.
    public init(header: AsciicastHeader, events: [AsciicastEvent] = []) {
        self.header = header
        self.events = events
    }

    /// The time of the last event (0 when there is none).
    public var duration: Double { events.last?.time ?? 0 }
}

/// The first line of an asciicast v2 file.
public struct AsciicastHeader: Sendable, Equatable {
    /// Always 2.
    public var version: Int
    /// Terminal columns at the start.
    public var width: Int
    /// Terminal rows at the start.
    public var height: Int
    /// Unix time of the start, seconds.
    public var timestamp: Int?
    /// Total duration, seconds, if recorded.
    public var duration: Double?
    /// Idle time limit for playback, seconds.
    public var idleTimeLimit: Double?
    /// The recorded command.
    public var command: String?
    /// A title.
    public var title: String?
    /// Environment (asciinema records `SHELL` and `TERM`).
    public var env: [String: String]

    /// Creates a header.
    public init(width: Int, height: Int, timestamp: Int? = nil, duration: Double? = nil, idleTimeLimit: Double? = nil,
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
public struct AsciicastEvent: Sendable, Equatable {
    /// Seconds since the start.
    public var time: Double
    /// What happened.
    public var kind: Kind
    /// Output or input text, `COLSxROWS` for a resize, a label for a marker.
    public var data: String

    /// Creates an event.
    public init(time: Double, kind: Kind, data: String) {
        self.time = time
        self.kind = kind
        self.data = data
    }

    /// The event codes of asciicast v2.
    public enum Kind: String, Sendable, CaseIterable {
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
