import Foundation
import HarnessCore
import HarnessSteps

/// One argument read from a flow line: its text (unescaped when quoted) and where it started.
struct FlowArgument: Equatable {
    var text: String
    var quoted: Bool
    var column: Int
}

/// Reads the words, strings, regexes and lists of one flow line, tracking columns.
///
/// Rules: arguments are separated by spaces or tabs; `#` at the start of an argument begins a
/// comment that runs to the end of the line (inside a word or a string it is literal);
/// strings are double-quoted with escapes; a regex is `/.../` with `\/` for a slash; lists are
/// comma-separated, spaces around commas allowed.
struct FlowLineScanner {
    let characters: [Character]
    let file: String
    let line: Int
    var index = 0

    init(_ text: Substring, file: String, line: Int) {
        self.characters = Array(text)
        self.file = file
        self.line = line
    }

    /// The position of the character at `index` (1-based column).
    func position(at index: Int) -> SourcePosition {
        SourcePosition(file: file, line: line, column: index + 1)
    }

    func error(_ kind: FlowParseError.Kind, at index: Int) -> FlowParseError {
        FlowParseError(kind, at: position(at: index))
    }

    func error(_ kind: FlowParseError.Kind, column: Int) -> FlowParseError {
        FlowParseError(kind, at: SourcePosition(file: file, line: line, column: column))
    }

    var current: Character? { index < characters.count ? characters[index] : nil }

    mutating func skipSpaces() {
        while let character = current, character == " " || character == "\t" { index += 1 }
    }

    /// True when only spaces and perhaps a comment remain.
    mutating func isAtEnd() -> Bool {
        skipSpaces()
        return current == nil || current == "#"
    }

    /// The next argument (a quoted string or a bare word), or nil at the end of the line.
    mutating func nextArgument(stopAtComma: Bool = false) throws(FlowParseError) -> FlowArgument? {
        if isAtEnd() { return nil }
        let start = index
        if current == "\"" {
            let text = try readString()
            try requireSeparator(after: "quote", allowComma: stopAtComma)
            return FlowArgument(text: text, quoted: true, column: start + 1)
        }
        if stopAtComma, current == "," {
            throw error(.unexpectedArgument(",", expected: "a list element"), at: index)
        }
        var text = ""
        while let character = current, character != " ", character != "\t" {
            if stopAtComma, character == "," { break }
            if character == "\"" { throw error(.unexpectedQuote, at: index) }
            text.append(character)
            index += 1
        }
        return FlowArgument(text: text, quoted: false, column: start + 1)
    }

    /// A comma-separated list of one or more elements (bare words or strings).
    mutating func nextList() throws(FlowParseError) -> [FlowArgument]? {
        guard let first = try nextArgument(stopAtComma: true) else { return nil }
        var elements = [first]
        while true {
            let save = index
            skipSpaces()
            guard current == "," else {
                index = save
                break
            }
            index += 1
            guard let element = try nextArgument(stopAtComma: true) else {
                throw error(.missingArgument(command: "list", expected: "an element after \",\""), at: index)
            }
            elements.append(element)
        }
        return elements
    }

    /// A `/regex/` at the current position (after spaces), unescaping `\/`.
    mutating func readRegex() throws(FlowParseError) -> String {
        let start = index
        index += 1  // opening slash
        var pattern = ""
        while let character = current {
            if character == "\\", index + 1 < characters.count {
                let next = characters[index + 1]
                if next == "/" {
                    pattern.append("/")
                } else {
                    pattern.append(character)
                    pattern.append(next)
                }
                index += 2
                continue
            }
            if character == "/" {
                index += 1
                try requireSeparator(after: "/", allowComma: false)
                return pattern
            }
            pattern.append(character)
            index += 1
        }
        throw error(.unterminatedRegex, at: start)
    }

    /// A double-quoted string at the current position, with its escapes decoded.
    mutating func readString() throws(FlowParseError) -> String {
        let start = index
        index += 1  // opening quote
        var text = ""
        while let character = current {
            if character == "\"" {
                index += 1
                return text
            }
            if character == "\\" {
                let escapeStart = index
                index += 1
                guard let escaped = current else { break }
                index += 1
                switch escaped {
                case "n": text.append("\n")
                case "t": text.append("\t")
                case "r": text.append("\r")
                case "e": text.append("\u{1B}")
                case "0": text.append("\u{0}")
                case "\"": text.append("\"")
                case "\\": text.append("\\")
                case "x":
                    let digits = String(characters[index..<min(index + 2, characters.count)])
                    guard digits.count == 2, digits.allSatisfy(\.isHexDigit),
                          let value = UInt8(digits, radix: 16), value < 0x80
                    else {
                        throw error(.invalidEscape("\\x" + digits), at: escapeStart)
                    }
                    index += 2
                    text.unicodeScalars.append(Unicode.Scalar(value))
                case "u":
                    guard current == "{", let close = characters[index...].firstIndex(of: "}") else {
                        throw error(.invalidEscape("\\u"), at: escapeStart)
                    }
                    let digits = String(characters[(index + 1)..<close])
                    guard (1...6).contains(digits.count), digits.allSatisfy(\.isHexDigit),
                          let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value)
                    else {
                        throw error(.invalidEscape("\\u{\(digits)}"), at: escapeStart)
                    }
                    index = close + 1
                    text.unicodeScalars.append(scalar)
                default:
                    throw error(.invalidEscape("\\" + String(escaped)), at: escapeStart)
                }
                continue
            }
            text.append(character)
            index += 1
        }
        throw error(.unterminatedString, at: start)
    }

    /// Reads characters up to (not including) `stop` or a space, for `NAME=VALUE`.
    mutating func readRaw(until stop: Character) -> String {
        var text = ""
        while let character = current, character != stop, character != " ", character != "\t" {
            text.append(character)
            index += 1
        }
        return text
    }

    mutating func requireSeparator(after what: String, allowComma: Bool) throws(FlowParseError) {
        guard let character = current else { return }
        if character == " " || character == "\t" || (allowComma && character == ",") { return }
        throw error(.missingSpaceAfter(what), at: index)
    }
}
