import Foundation
import TerminalEmulator

extension TerminalDriving {
    /// Sends raw bytes to the program. Never blocks: what the pty does not accept now is
    /// written by the harness's event loop as the program reads.
    public func send(_ bytes: [UInt8]) throws {
        try core.send(bytes)
    }

    /// Types text: its UTF-8 bytes, as a terminal sends typed characters, unless the program
    /// asked the kitty keyboard protocol to report all keys as escape codes (flag 8): then each
    /// character is sent as the key press that types it (``Key/encoded(applicationCursorKeys:kittyFlags:)``,
    /// a control character as its key: `\r` Enter, `\t` Tab, `\u{1b}` Escape, `\u{1}` ctrl-a).
    public func type(_ text: String, fileID: StaticString = #fileID, line: UInt = #line) throws {
        let flags = core.modes.kittyKeyboard
        if flags.contains(.reportAllKeysAsEscapeCodes) {
            var bytes: [UInt8] = []
            for key in Key.typing(text) { bytes += try key.encoded(kittyFlags: flags) }
            try core.send(bytes)
        } else {
            try core.send(Array(text.utf8))
        }
        journalInput("type \(text.debugDescription)", fileID: fileID, line: line)
    }

    /// Records an input in the session's journal (for the test's trace), at the line that sent it
    /// when known.
    func journalInput(_ text: String, fileID: StaticString? = nil, line: UInt = 0) {
        let now = Date()
        core.journal.record(SessionJournal.Entry(
            text: text, file: fileID.map { "\($0)" }, line: line == 0 ? nil : Int(line),
            start: now, end: now, problem: nil, screen: nil))
    }

    /// Presses keys in order, encoded as xterm does (honouring application cursor-key mode), or
    /// as the kitty keyboard protocol does when the program pushed its flags. A key the
    /// encoding cannot send (`ctrl-enter` in xterm's bytes, a release without kitty flag 2)
    /// throws a ``KeyError`` and nothing at all is sent.
    public func press(_ keys: Key..., fileID: StaticString = #fileID, line: UInt = #line) throws {
        try press(keys, fileID: fileID, line: line)
    }

    /// Presses keys in order (see ``press(_:fileID:line:)-(Key...)``).
    public func press(_ keys: [Key], fileID: StaticString = #fileID, line: UInt = #line) throws {
        let modes = core.modes
        var bytes: [UInt8] = []
        for key in keys {
            bytes += try key.encoded(applicationCursorKeys: modes.applicationCursorKeys, kittyFlags: modes.kittyKeyboard)
        }
        try core.send(bytes)
        journalInput("press " + keys.map(\.name).joined(separator: " "), fileID: fileID, line: line)
    }

    /// Pastes text as a terminal does: line breaks become carriage returns, and when the
    /// program enabled bracketed paste (`CSI ? 2004 h`) the text is wrapped in
    /// `ESC [ 200 ~` ... `ESC [ 201 ~` (any end marker inside the text is removed).
    public func paste(_ text: String, fileID: StaticString = #fileID, line: UInt = #line) throws {
        try core.send(TerminalSession.pasteBytes(text, bracketed: core.modes.bracketedPaste))
        journalInput("paste \(text.debugDescription)", fileID: fileID, line: line)
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
