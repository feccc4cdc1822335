@testable import TerminalEmulator

/// One action the parser performed, in a form tests can compare.
enum ParserEvent: Equatable, CustomStringConvertible {
    case print(Unicode.Scalar)
    case execute(UInt8)
    case csi(String, String, Character)
    case esc(String, Character)
    case osc(String, bell: Bool)
    case hook(String, String, Character)
    case put(UInt8)
    case unhook

    var description: String {
        switch self {
        case let .print(scalar): return "print(\(String(scalar).debugDescription))"
        case let .execute(byte): return "execute(\(byte))"
        case let .csi(params, intermediates, final): return "csi(\(params),\(intermediates),\(final))"
        case let .esc(intermediates, final): return "esc(\(intermediates),\(final))"
        case let .osc(payload, bell): return "osc(\(payload.debugDescription),bell:\(bell))"
        case let .hook(params, intermediates, final): return "hook(\(params),\(intermediates),\(final))"
        case let .put(byte): return "put(\(byte))"
        case .unhook: return "unhook"
        }
    }
}

/// A performer that records every action (printASCII runs are recorded per character,
/// so split and whole feeds compare equal).
struct RecordingPerformer: TerminalPerformer {
    var events: [ParserEvent] = []

    mutating func print(_ scalar: Unicode.Scalar) { events.append(.print(scalar)) }
    mutating func execute(_ control: UInt8) { events.append(.execute(control)) }
    mutating func csiDispatch(_ parameters: CSIParameters, intermediates: Intermediates, final: UInt8) {
        events.append(.csi(parameters.description, intermediates.description, Character(Unicode.Scalar(final))))
    }
    mutating func escDispatch(intermediates: Intermediates, final: UInt8) {
        events.append(.esc(intermediates.description, Character(Unicode.Scalar(final))))
    }
    mutating func oscDispatch(_ payload: [UInt8], bellTerminated: Bool) {
        events.append(.osc(String(decoding: payload, as: UTF8.self), bell: bellTerminated))
    }
    mutating func hook(_ parameters: CSIParameters, intermediates: Intermediates, final: UInt8) {
        events.append(.hook(parameters.description, intermediates.description, Character(Unicode.Scalar(final))))
    }
    mutating func put(_ byte: UInt8) { events.append(.put(byte)) }
    mutating func unhook() { events.append(.unhook) }
}

/// Parses `bytes` in one feed, or in chunks cut at `splits`.
func parse(_ bytes: [UInt8], splits: [Int] = []) -> (events: [ParserEvent], parser: TerminalParser) {
    var parser = TerminalParser()
    var performer = RecordingPerformer()
    var start = 0
    for cut in splits + [bytes.count] where cut >= start {
        parser.feed(Array(bytes[start..<cut]), into: &performer)
        start = cut
    }
    return (performer.events, parser)
}

/// Prints each character of a string as events.
func prints(_ text: String) -> [ParserEvent] {
    text.unicodeScalars.map { .print($0) }
}

/// A terminal of the given size after feeding `input`.
func screen(_ input: String, cols: Int = 10, rows: Int = 4) -> ScreenSnapshot {
    let terminal = Terminal(cols: cols, rows: rows)
    terminal.feed(input)
    return terminal.snapshot()
}

let ESC = "\u{1B}"
let CSI = "\u{1B}["
