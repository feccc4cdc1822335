import Foundation
import TerminalEmulator

/// `harness screen --size COLSxROWS FILE`: feeds a raw byte recording through the terminal
/// emulator and prints the final screen, one line per row, trailing blanks trimmed.
enum ScreenCommand: Command {
    static let name = "screen"
    static let synopsis = "screen [--size COLSxROWS] FILE   print the final screen of a raw byte recording\n" +
        "         (default size 80x24; FILE - reads standard input)"

    static func run(_ arguments: [String]) throws -> Int32 {
        var size: (cols: Int, rows: Int) = (80, 24)
        var file: String?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--size" || argument == "-s" {
                guard index + 1 < arguments.count else { throw CommandError.usage("--size needs a value like 80x24") }
                size = try parseSize(arguments[index + 1])
                index += 2
            } else if argument.hasPrefix("--size=") {
                size = try parseSize(String(argument.dropFirst("--size=".count)))
                index += 1
            } else if argument.hasPrefix("-") && argument != "-" {
                throw CommandError.usage("unknown option \(argument.debugDescription)")
            } else {
                guard file == nil else { throw CommandError.usage("only one FILE may be given") }
                file = argument
                index += 1
            }
        }
        guard let file else { throw CommandError.usage("missing FILE") }
        let data: Data
        do {
            data = file == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw CommandError.failure("cannot read \(file): \((error as NSError).localizedDescription)")
        }
        FileHandle.standardOutput.write(Data(render(data, cols: size.cols, rows: size.rows).utf8))
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
