import Foundation
import Testing
@testable import TerminalEmulator

/// docs/terminal-emulator.md's synchronized output example and its DECRQM table say what the
/// emulator does.
@Suite struct TerminalEmulatorDocsTests {
    static let docs = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/terminal-emulator.md")

    @Test func theSynchronizedOutputExampleRunsAsWritten() throws {
        let text = try String(contentsOf: Self.docs, encoding: .utf8)
        #expect(text.contains(#"terminal.feed("old\u{1B}[?2026h\u{1B}[2J\u{1B}[Hnew, half")"#))
        let terminal = Terminal(cols: 20, rows: 2)
        terminal.feed("old\u{1B}[?2026h\u{1B}[2J\u{1B}[Hnew, half")
        #expect(terminal.snapshot().line(0) == "old")
        #expect(terminal.isHoldingFrame)
        terminal.feed(" done\u{1B}[?2026l")
        #expect(terminal.snapshot().line(0) == "new, half done")
    }

    /// Every row of the table: a listed mode answers as the row says, fresh and after `h`/`l`.
    @Test func theDECRQMTableMatchesTheAnswers() throws {
        let text = try String(contentsOf: Self.docs, encoding: .utf8)
        let table = text.components(separatedBy: "| Mode | What | Answer |")[1].components(separatedBy: "\n\n")[0]
        var checked = 0
        for row in table.split(separator: "\n").dropFirst() {  // after the |---| line
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let answer = cells[2]
            for spelled in cells[0].split(separator: ",") {
                let mode = spelled.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`"))
                guard mode != "any other", let number = Int(mode.hasPrefix("?") ? String(mode.dropFirst()) : mode) else { continue }
                let isPrivate = mode.hasPrefix("?")
                let marker = isPrivate ? "?" : ""
                func status(after setup: String) -> TerminalModeStatus {
                    let terminal = Terminal(cols: 10, rows: 3)
                    terminal.feed(setup)
                    return isPrivate ? terminal.privateModeStatus(number) : terminal.ansiModeStatus(number)
                }
                let set = status(after: "\u{1B}[\(marker)\(number)h")
                let reset = status(after: "\u{1B}[\(marker)\(number)h\u{1B}[\(marker)\(number)l")
                switch answer {
                case "set / reset": #expect(set == .set && reset == .reset, "\(mode)")
                case "reset": #expect(set == .reset && reset == .reset, "\(mode)")
                case "not recognized": #expect(set == .notRecognized && reset == .notRecognized, "\(mode)")
                default: Issue.record("unknown answer \(answer) for \(mode)")
                }
                checked += 1
            }
        }
        #expect(checked == 23)
    }
}
