import Foundation
import TerminalEmulator

/// `harness screen --size COLSxROWS FILE`: feeds a raw byte recording through the terminal
/// emulator and prints the final screen, one line per row, trailing blanks trimmed, then the
/// title and the modes the program left set (when there are any). `FILE` may be any path that
/// reads, `/dev/fd/N` (a pipe, a process substitution) included, or `-` for standard input.
enum ScreenCommand: Command {
    static let name = "screen"
    static let operands = "FILE"
    static let summary = "print the final screen of a raw byte recording, its title and the modes set (FILE may be /dev/fd/N; - reads standard input)"
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
            // Read to the end through a handle, not by the file's size: a pipe has none.
            if file == "-" {
                data = try FileHandle.standardInput.readToEnd() ?? Data()
            } else {
                let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: file))
                defer { try? handle.close() }
                data = try handle.readToEnd() ?? Data()
            }
        } catch {
            throw CommandError.failure("cannot read \(file): \((error as NSError).localizedDescription)")
        }
        StandardStreams.writeOutput(render(data, cols: size.cols, rows: size.rows))
        return 0
    }

    /// The final screen after feeding `data`: one line per row, trailing blanks trimmed; then
    /// `title: "..."` when the program set one and `modes: ...` when it left any set.
    static func render(_ data: Data, cols: Int, rows: Int) -> String {
        let terminal = Terminal(cols: cols, rows: rows)
        data.withUnsafeBytes { terminal.feed($0) }
        var lines = terminal.snapshot().lines
        if !terminal.title.isEmpty { lines.append("title: \(terminal.title.debugDescription)") }
        let modes = setModes(terminal.modes)
        if !modes.isEmpty { lines.append("modes: " + modes.joined(separator: ", ")) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The modes that differ from a reset terminal's, by their names in `TerminalModes`: a
    /// flag set as its name (`bracketedPaste`), a flag cleared as `name=false`
    /// (`cursorVisible=false`), any other value as `name=value` (`mouseTracking=anyEvent`).
    /// Read by reflection, so every mode the emulator models is listed without a table here.
    static func setModes(_ modes: TerminalModes) -> [String] {
        let reset = Dictionary(Mirror(reflecting: TerminalModes()).children.compactMap { child in
            child.label.map { ($0, String(describing: child.value)) }
        }, uniquingKeysWith: { first, _ in first })
        return Mirror(reflecting: modes).children.compactMap { child in
            guard let name = child.label else { return nil }
            let value = String(describing: child.value)
            guard value != reset[name] else { return nil }
            return value == "true" ? name : "\(name)=\(value)"
        }
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
