import Foundation

/// Everything that went through a session's terminal, with timestamps, for replay and
/// asciicast export.
package struct TerminalRecording: Sendable, Equatable {
    /// What an event carries.
    public enum EventKind: String, Sendable, Hashable {
        /// Bytes the program wrote.
        case output
        /// Bytes sent to the program (typed keys, pastes, and the terminal's answers to queries).
        case input
        /// The window was resized; the bytes are `"COLSxROWS"` in ASCII.
        case resize
    }

    /// One chunk of bytes at a moment of the session.
    public struct Event: Sendable, Equatable {
        /// Seconds since launch, from a monotonic clock.
        public var time: Double
        /// Output, input or resize.
        public var kind: EventKind
        /// The raw bytes of the chunk.
        public var bytes: [UInt8]

        /// Creates an event.
        public init(time: Double, kind: EventKind, bytes: [UInt8]) {
            self.time = time
            self.kind = kind
            self.bytes = bytes
        }
    }

    /// The terminal size at launch.
    public var size: TerminalSize
    /// The wall-clock time of the launch (for the asciicast header).
    public var startDate: Date
    /// The `TERM` the program saw, when known.
    public var term: String?
    /// The events in order.
    public var events: [Event]
    /// How many older events the session dropped before `events` because the recording went
    /// over its output limit (``TerminalSession/Configuration/outputLimit``); 0 when none.
    public var droppedEventCount: Int
    /// How many bytes those dropped events held.
    public var droppedByteCount: Int

    /// Creates a recording.
    public init(size: TerminalSize, startDate: Date = Date(), term: String? = nil, events: [Event] = [],
                droppedEventCount: Int = 0, droppedByteCount: Int = 0) {
        self.size = size
        self.startDate = startDate
        self.term = term
        self.events = events
        self.droppedEventCount = droppedEventCount
        self.droppedByteCount = droppedByteCount
    }

    /// All output bytes concatenated: what a raw byte recording of the session holds.
    public var outputBytes: [UInt8] {
        var result: [UInt8] = []
        for event in events where event.kind == .output { result += event.bytes }
        return result
    }
}
