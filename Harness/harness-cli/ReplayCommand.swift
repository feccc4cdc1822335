import Foundation
import HarnessCore
import HarnessFlows
import TerminalEmulator

/// `harness replay FILE.cast [--at SECONDS]`: replays an asciicast v2 recording through the
/// terminal emulator and prints the screen at the end (or at a time), like `harness screen`.
enum ReplayCommand: Command {
    static let name = "replay"
    static let operands = "FILE.cast"
    static let summary = "print the screen of an asciicast recording (at the end or a time)"
    static let options = [CommandOption(name: "at", value: "SECONDS", summary: "replays up to this time (default: the whole recording)")]

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try parse(arguments)
        guard parsed.positional.count == 1, let file = parsed.positional.first else {
            throw CommandError.usage(parsed.positional.isEmpty ? "missing FILE.cast" : "only one FILE.cast may be given")
        }
        let time = try parsed.seconds("at")
        let cast: Asciicast
        do {
            cast = try AsciicastReader.read(path: file)
        } catch {
            throw CommandError.failure("\(error)")
        }
        HarnessCLI.printLine(screenText(of: cast, at: time))
        return 0
    }

    /// The screen's lines (trailing blanks trimmed) after replaying `cast` up to `time`.
    static func screenText(of cast: Asciicast, at time: Double?) -> String {
        let terminal = Terminal(cols: cast.header.width, rows: cast.header.height)
        for step in cast.replaySteps(upTo: time) {
            switch step {
            case .output(let bytes): terminal.feed(bytes)
            case .resize(let size): terminal.resize(cols: size.cols, rows: size.rows)
            }
        }
        return terminal.snapshot().lines.joined(separator: "\n")
    }
}
