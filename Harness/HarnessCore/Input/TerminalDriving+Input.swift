import Foundation
import TerminalEmulator

extension TerminalDriving {
    /// Sends raw bytes to the program. Never blocks: what the pty does not accept now is
    /// written by the harness's event loop as the program reads.
    public func send(_ bytes: [UInt8]) throws {
        try core.send(bytes)
    }

    /// Types text (sent as UTF-8, as a terminal does for typed characters).
    public func type(_ text: String) throws {
        try core.send(Array(text.utf8))
        journalInput("type \(text.debugDescription)")
    }

    /// Records an input in the session's journal (for the test's trace).
    func journalInput(_ text: String) {
        let now = Date()
        core.journal.record(SessionJournal.Entry(text: text, file: nil, line: nil, start: now, end: now, problem: nil, screen: nil))
    }

    /// Presses keys in order, encoded as xterm does, honouring application cursor-key mode.
    public func press(_ keys: Key...) throws {
        try press(keys)
    }

    /// Presses keys in order, encoded as xterm does, honouring application cursor-key mode.
    public func press(_ keys: [Key]) throws {
        let applicationCursorKeys = core.modes.applicationCursorKeys
        var bytes: [UInt8] = []
        for key in keys { bytes += try key.encoded(applicationCursorKeys: applicationCursorKeys) }
        try core.send(bytes)
        journalInput("press " + keys.map(\.name).joined(separator: " "))
    }

    /// Pastes text as a terminal does: line breaks become carriage returns, and when the
    /// program enabled bracketed paste (`CSI ? 2004 h`) the text is wrapped in
    /// `ESC [ 200 ~` ... `ESC [ 201 ~` (any end marker inside the text is removed).
    public func paste(_ text: String) throws {
        try core.send(TerminalSession.pasteBytes(text, bracketed: core.modes.bracketedPaste))
        journalInput("paste \(text.debugDescription)")
    }
}

extension TerminalSession {
    /// The bytes a terminal writes when `text` is pasted.
    static func pasteBytes(_ text: String, bracketed: Bool) -> [UInt8] {
        var body = text.replacingOccurrences(of: "\r\n", with: "\r").replacingOccurrences(of: "\n", with: "\r")
        guard bracketed else { return Array(body.utf8) }
        body = body.replacingOccurrences(of: "\u{1b}[201~", with: "")
        return Array("\u{1b}[200~".utf8) + Array(body.utf8) + Array("\u{1b}[201~".utf8)
    }
}
