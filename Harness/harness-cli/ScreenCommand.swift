import Foundation
import TerminalEmulator

/// `harness screen --size COLSxROWS FILE`: feeds a raw byte recording through the terminal
/// emulator and prints the final screen, one line per row, trailing blanks trimmed.
enum ScreenCommand: Command {
    static let name = "screen"
    static let operands = "FILE"
    static let summary = "print the final screen of a raw byte recording (FILE - reads standard input)"
    static let options = [CommandOption(name: "size", value: "COLSxROWS", summary: "the terminal size (default 80x24)", short: "s")]

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try parse(arguments)
        let size = try parsed.value("size").map(parseSize) ?? (cols: 80, rows: 24)
        guard parsed.positional.count + (parsed.afterSeparator?.count ?? 0) <= 1 else {
            throw CommandError.usage("only one FILE may be given")
        }
        let file = parsed.positional.first ?? parsed.afterSeparator?.first
        guard let file else { throw CommandError.usage("missing FILE") }
        let data: Data
        do {
            data = file == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw CommandError.failure("cannot read \(file): \((error as NSError).localizedDescription)")
        }
        StandardStreams.writeOutput(render(data, cols: size.cols, rows: size.rows))
        return 0
    }

    /// The final screen after feeding `data`: one line per row, trailing blanks trimmed.
    static func render(_ data: Data, cols: Int, rows: Int) -> String {
        let terminal = Terminal(cols: cols, rows: rows)
        data.withUnsafeBytes { terminal.feed($0) }
        return terminal.snapshot().lines.joined(separator: "\n") + "\n"
    }

    /// Parses "COLSxROWS" (1...10000 each).
    static func parseSize(_ text: String) throws -> (cols: Int, rows: Int) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let cols = Int(parts[0]), let rows = Int(parts[1]),
              (1...10_000).contains(cols), (1...10_000).contains(rows) else {
            throw CommandError.usage("bad size \(text.debugDescription), expected COLSxROWS such as 80x24")
        }
        return (cols, rows)
    }
}
