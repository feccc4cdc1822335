/// Operating system commands (`ESC ] Ps ; Pt` ended by BEL or ST): the title, hyperlinks, the
/// shell's marks and clipboard writes, and the colour queries (OSC 10/11/12 `?`, answered with
/// the default palette). Malformed ones are counted and ignored; no other query is answered
/// (OSC 52's `?` would hand the program the tester's clipboard).
extension TerminalDispatcher {
    mutating func oscDispatch(_ payload: [UInt8], bellTerminated: Bool) {
        let separator = payload.firstIndex(of: UInt8(ascii: ";")) ?? payload.endIndex
        let command = payload[..<separator]
        let argument = separator < payload.endIndex ? payload[(separator + 1)...] : []
        // A payload at the parser's cap may have lost its end: a link or clipboard text cut
        // short would be wrong, so those are dropped (a title is shown cut).
        let complete = payload.count < TerminalParser.oscCapacity
        switch String(decoding: command, as: UTF8.self) {
        case "0", "2":
            screen.title = String(decoding: argument, as: UTF8.self)
        case "8" where complete:
            hyperlink(argument)
        case "52" where complete:
            clipboard(argument)
        case "133":
            shellMark(argument)
        case "10", "11", "12":
            answerColorQuery(Int(String(decoding: command, as: UTF8.self))!, argument, bellTerminated: bellTerminated)
        case "1", "4", "7", "104", "110", "111", "112", "1337":
            break // icon name, palette, cwd, colors, iTerm2's own: nothing to show
        default:
            unhandledSequenceCount += 1
        }
    }

    // MARK: - OSC 8: hyperlinks

    /// `8 ; PARAMS ; URI` opens a link (cells printed from now on carry it); an empty URI
    /// closes it. `PARAMS` (`id=...`) are not kept: cells with the same URI are one link.
    private mutating func hyperlink(_ argument: ArraySlice<UInt8>) {
        guard let separator = argument.firstIndex(of: UInt8(ascii: ";")) else {
            unhandledSequenceCount += 1
            return
        }
        let uri = String(decoding: argument[(separator + 1)...], as: UTF8.self)
        if uri.isEmpty {
            screen.pen.link = 0
        } else if let index = screen.links.intern(uri) {
            screen.pen.link = index
        } else {
            screen.pen.link = 0
            unhandledSequenceCount += 1  // the link table is full
        }
    }

    // MARK: - OSC 52: clipboard

    /// `52 ; SELECTION ; BASE64` records what the program copied; an empty payload records
    /// that it cleared the clipboard. `?` (a read) is never answered, and nothing is decoded
    /// from a payload that is not base64.
    private mutating func clipboard(_ argument: ArraySlice<UInt8>) {
        guard let separator = argument.firstIndex(of: UInt8(ascii: ";")) else {
            unhandledSequenceCount += 1
            return
        }
        let selection = String(decoding: argument[..<separator], as: UTF8.self)
        let data = argument[(separator + 1)...]
        guard data.first != UInt8(ascii: "?") else { return }  // a read: see the type's comment
        guard let bytes = Base64.decode(data) else {
            unhandledSequenceCount += 1
            return
        }
        screen.marks.clipboardWritten(ClipboardWrite(
            selection: selection.isEmpty ? "s0" : selection, text: String(decoding: bytes, as: UTF8.self)))
    }

    // MARK: - OSC 133: shell integration

    /// `133 ; A|B|C|D [; ...]`: the shell's prompt, command line, output and end marks. Other
    /// letters (`P`, prompt properties) and options after the letter are ignored.
    private mutating func shellMark(_ argument: ArraySlice<UInt8>) {
        guard let kind = argument.first, argument.count == 1 || argument[argument.startIndex + 1] == UInt8(ascii: ";") else {
            unhandledSequenceCount += 1
            return
        }
        let line = screen.scrollback.totalPushed + screen.cursorRow
        switch kind {
        case UInt8(ascii: "A"):
            screen.marks.promptStarted(line: line)
        case UInt8(ascii: "B"):
            screen.marks.inputStarted(line: line, column: screen.cursorCol)
        case UInt8(ascii: "C"):
            let typed = screen.marks.commands.last.flatMap { $0.phase == .input ? screen.commandText(from: $0) : nil }
            screen.marks.outputStarted(line: line, commandText: typed)
        case UInt8(ascii: "D"):
            screen.marks.commandFinished(line: line, status: Self.exitStatus(argument.dropFirst(2)))
        default:
            break
        }
    }

    /// The status of a D mark: the digits before the next `;` (`D;3;aid=1`), at most 9 of them.
    static func exitStatus(_ text: ArraySlice<UInt8>) -> Int? {
        let digits = text.prefix { $0 != UInt8(ascii: ";") }
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }
}
