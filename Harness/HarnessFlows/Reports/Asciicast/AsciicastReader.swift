import Foundation
import HarnessCore
import HarnessSteps

/// Why an asciicast file could not be read; `line` is 1-based.
package enum AsciicastReadError: Error, Equatable, CustomStringConvertible {
    /// The file could not be opened.
    case unreadable(path: String, reason: String)
    /// The file is empty.
    case empty(source: String)
    /// The first line is not a v2 header.
    case invalidHeader(source: String, reason: String)
    /// An event line is malformed.
    case invalidEvent(source: String, line: Int, reason: String)

    /// A message for the user.
    package var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
        case .empty(let source): "\(source): empty file (an asciicast starts with a header line)"
        case .invalidHeader(let source, let reason): "\(source):1: invalid asciicast v2 header: \(reason)"
        case .invalidEvent(let source, let line, let reason): "\(source):\(line): invalid event: \(reason)"
        }
    }
}

/// Reads asciicast v2 files, strictly: a header object with `version` 2 and `width` and
/// `height` from 1 to ``TerminalSize/maximumDimension``, then one `[time, code, data]` array per line, times non-negative and never
/// decreasing, codes `o`, `i`, `r` (data `COLSxROWS`) or `m`. Blank lines are ignored.
package enum AsciicastReader {
    /// Reads the file at `path`.
    package static func read(path: String) throws(AsciicastReadError) -> Asciicast {
        let data = try ReportFile.contents(of: path, orThrow: AsciicastReadError.unreadable)
        return try parse(String(decoding: data, as: UTF8.self), source: path)
    }

    /// Parses the text of a recording; `source` names it in errors.
    package static func parse(_ text: String, source: String = "<cast>") throws(AsciicastReadError) -> Asciicast {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.first, !first.trimmingCharacters(in: .whitespaces).isEmpty else { throw .empty(source: source) }
        let header = try parseHeader(first, source: source)
        var events: [AsciicastEvent] = []
        var lastTime = 0.0
        for (offset, line) in lines.enumerated().dropFirst() {
            if line.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { continue }
            let number = offset + 1
            let event = try parseEvent(line, source: source, line: number)
            guard event.time >= lastTime else {
                throw .invalidEvent(source: source, line: number, reason: "time \(event.time) is before the previous event's \(lastTime)")
            }
            lastTime = event.time
            events.append(event)
        }
        return Asciicast(header: header, events: events)
    }

    private static func parseHeader(_ line: Substring, source: String) throws(AsciicastReadError) -> AsciicastHeader {
        let decoded: HeaderLine
        do {
            decoded = try JSONDecoder().decode(HeaderLine.self, from: Data(line.utf8))
        } catch {
            throw .invalidHeader(source: source, reason: "the first line is not a JSON object with number fields version, width and height")
        }
        guard let version = decoded.version else {
            throw .invalidHeader(source: source, reason: "no \"version\" number")
        }
        guard version == 2 else {
            throw .invalidHeader(source: source, reason: "version \(version) is not supported (only 2)")
        }
        guard let width = decoded.width, width > 0, let height = decoded.height, height > 0 else {
            throw .invalidHeader(source: source, reason: "\"width\" and \"height\" must be positive integers")
        }
        // The same bound as a flow's `size` and a resize event: a terminal the emulator is
        // sized for, not one a crafted header makes it allocate.
        let maximum = TerminalSize.maximumDimension
        guard width <= maximum, height <= maximum else {
            throw .invalidHeader(
                source: source, reason: "the terminal \(width)x\(height) is too large (\"width\" and \"height\" are at most \(maximum))")
        }
        return AsciicastHeader(
            width: width,
            height: height,
            timestamp: decoded.timestamp.flatMap { $0.isFinite && abs($0) < 1e15 ? Int($0) : nil },
            duration: decoded.duration,
            idleTimeLimit: decoded.idle_time_limit,
            command: decoded.command,
            title: decoded.title,
            env: (decoded.env ?? [:]).compactMapValues { $0 }
        )
    }

    private static func parseEvent(_ line: Substring, source: String, line number: Int) throws(AsciicastReadError) -> AsciicastEvent {
        let decoded: EventLine
        do {
            decoded = try JSONDecoder().decode(EventLine.self, from: Data(line.utf8))
        } catch {
            throw .invalidEvent(source: source, line: number,
                                reason: "an event is a JSON array [time, code, data]: a number, a string, a string")
        }
        guard decoded.time >= 0, decoded.time.isFinite else {
            throw .invalidEvent(source: source, line: number, reason: "the time must be a number of seconds, 0 or more")
        }
        guard let kind = AsciicastEvent.Kind(rawValue: decoded.code) else {
            throw .invalidEvent(source: source, line: number, reason: "unknown code \"\(decoded.code)\" (expected \"o\", \"i\", \"r\" or \"m\")")
        }
        if kind == .resize, TerminalSize(parsing: decoded.data) == nil {
            throw .invalidEvent(source: source, line: number, reason: "a resize's data must be COLSxROWS, not \"\(decoded.data)\"")
        }
        return AsciicastEvent(time: decoded.time, kind: kind, data: decoded.data)
    }

    // MARK: - JSON shapes

    private struct HeaderLine: Decodable {
        var version: Int?
        var width: Int?
        var height: Int?
        var timestamp: Double?
        var duration: Double?
        var idle_time_limit: Double?
        var command: String?
        var title: String?
        var env: [String: String?]?
    }

    private struct EventLine: Decodable {
        var time: Double
        var code: String
        var data: String

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            time = try container.decode(Double.self)
            code = try container.decode(String.self)
            data = try container.decode(String.self)
            guard container.isAtEnd else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "more than three elements")
            }
        }
    }
}
