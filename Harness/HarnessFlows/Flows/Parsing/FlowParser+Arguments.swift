import Foundation
import HarnessCore
import HarnessSteps
import HarnessWire

/// The arguments the commands share: words, numbers, durations, names, files, JSON, patterns.
extension FlowParser.LineParser {
    func missing(_ expected: String) -> FlowParseError {
        scanner.error(.missingArgument(command: keyword?.rawValue ?? "", expected: expected), at: scanner.index)
    }

    func argument(_ expected: String) throws(FlowParseError) -> FlowArgument {
        guard let argument = try scanner.nextArgument() else { throw missing(expected) }
        return argument
    }

    func word(_ expected: String) throws(FlowParseError) {
        let argument = try argument("\"\(expected)\"")
        guard !argument.quoted, argument.text == expected else {
            throw scanner.error(.unexpectedArgument(argument.text, expected: "\"\(expected)\""), column: argument.column)
        }
    }

    /// One of a fixed set of bare words (`arguments`/`environment`), as the value it names.
    func choice<Choice: RawRepresentable>(_ expected: String) throws(FlowParseError) -> Choice
    where Choice.RawValue == String {
        try choice(expected, named: Choice.init(rawValue:))
    }

    /// One of a fixed set of bare words (`in`/`out`, `up`/`down`), as the case it describes.
    func choice<Choice: CaseIterable & CustomStringConvertible>(_ expected: String) throws(FlowParseError) -> Choice {
        try choice(expected) { word in Choice.allCases.first { $0.description == word } }
    }

    private func choice<Choice>(_ expected: String, named: (String) -> Choice?) throws(FlowParseError) -> Choice {
        let argument = try argument(expected)
        guard !argument.quoted, let choice = named(argument.text) else {
            throw scanner.error(.unexpectedArgument(argument.text, expected: expected), column: argument.column)
        }
        return choice
    }

    func expectEnd() throws(FlowParseError) {
        if let extra = try scanner.nextArgument() {
            throw scanner.error(.unexpectedArgument(extra.text, expected: "the end of the line"), column: extra.column)
        }
    }

    func terminalSize() throws(FlowParseError) -> TerminalSize {
        let argument = try argument("a size COLSxROWS")
        guard let size = TerminalSize(parsing: argument.text) else {
            throw scanner.error(.invalidSize(argument.text), column: argument.column)
        }
        return size
    }

    func duration(_ expected: String, allowZero: Bool) throws(FlowParseError) -> Duration {
        let argument = try argument(expected)
        guard let duration = FlowDurationParser.parse(argument.text), allowZero || duration > .zero else {
            throw scanner.error(.invalidDuration(argument.text), column: argument.column)
        }
        return duration
    }

    func count() throws(FlowParseError) -> Int {
        let argument = try argument("a count")
        guard argument.text.allSatisfy(\.isASCIIDigit), argument.text.count <= 9, let value = Int(argument.text) else {
            throw scanner.error(.invalidNumber(argument.text, expected: "a count 0 or more"), column: argument.column)
        }
        return value
    }

    func status(_ argument: FlowArgument) throws(FlowParseError) -> Int {
        guard argument.text.count == 3, argument.text.allSatisfy(\.isASCIIDigit), let value = Int(argument.text),
              (100...599).contains(value)
        else {
            throw scanner.error(.invalidNumber(argument.text, expected: "an HTTP status 100...599"), column: argument.column)
        }
        return value
    }

    func method() throws(FlowParseError) -> String {
        let argument = try argument("an HTTP method")
        guard !argument.text.isEmpty, argument.text.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
            throw scanner.error(.invalidMethod(argument.text), column: argument.column)
        }
        return argument.text
    }

    func requestPath() throws(FlowParseError) -> String {
        let argument = try argument("a request path")
        guard argument.text.hasPrefix("/") else {
            throw scanner.error(.invalidRequestPath(argument.text), column: argument.column)
        }
        return argument.text
    }

    func identifier(_ expected: String) throws(FlowParseError) -> String {
        let argument = try argument(expected)
        guard !argument.text.isEmpty, !argument.text.contains(where: { $0.isWhitespace || $0.isNewline }) else {
            throw scanner.error(.invalidName(argument.text, reason: "a name has no spaces"), column: argument.column)
        }
        return argument.text
    }

    /// A snapshot's name (`snapshot`, `snapshot-transcript`, `stdout snapshot`).
    func snapshotName() throws(FlowParseError) -> String {
        let name = try argument("the snapshot's name")
        guard !name.text.isEmpty, !name.text.hasPrefix("."),
              name.text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
        else {
            throw scanner.error(.invalidName(name.text, reason: "a snapshot name uses letters, digits, - _ and ."), column: name.column)
        }
        return name.text
    }

    func sandboxName(_ argument: FlowArgument) throws(FlowParseError) -> String {
        let parts = argument.text.split(separator: "/", omittingEmptySubsequences: false)
        guard !argument.text.isEmpty, !argument.text.hasPrefix("/"),
              parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." })
        else {
            throw scanner.error(.invalidName(argument.text, reason: "a sandbox file is a relative path without . or .. parts"),
                                column: argument.column)
        }
        return argument.text
    }

    func reference(_ argument: FlowArgument) -> FlowFileReference {
        FlowFileReference(written: argument.text, directory: directory)
    }

    /// A JSON argument: a quoted string holding JSON (checked now), or a bare word naming a file.
    func json(_ argument: FlowArgument) throws(FlowParseError) -> FlowJSON {
        guard argument.quoted else { return .file(reference(argument)) }
        do {
            _ = try RawJSON(validating: Data(argument.text.utf8))
        } catch {
            throw scanner.error(.invalidJSON(argument.text, reason: "\(error)"), column: argument.column)
        }
        return .inline(argument.text)
    }

    /// `"text"` (not empty) or `/regex/` (compiling).
    func pattern() throws(FlowParseError) -> FlowTextPattern {
        guard !scanner.isAtEnd() else { throw missing("\"text\" or /regex/") }
        if scanner.current == "/" {
            let column = scanner.index + 1
            let pattern = try scanner.readRegex()
            guard !pattern.isEmpty else {
                throw scanner.error(.invalidRegex(pattern: pattern, reason: "the pattern is empty"), column: column)
            }
            do {
                _ = try NSRegularExpression(pattern: pattern, options: [])
            } catch {
                throw scanner.error(.invalidRegex(pattern: pattern, reason: "it does not compile"), column: column)
            }
            return .regex(pattern)
        }
        let argument = try argument("\"text\" or /regex/")
        guard !argument.text.isEmpty else {
            throw scanner.error(.unexpectedArgument("\"\"", expected: "non-empty text"), column: argument.column)
        }
        return .text(argument.text)
    }

    /// `NAME=VALUE` (`env`, `set`): the name up to the first `=`, then a bare word or a string,
    /// possibly empty.
    func assignment(_ expected: String, nameRule: String, isValidName: (String) -> Bool) throws(FlowParseError) -> (String, String) {
        guard !scanner.isAtEnd() else { throw missing(expected) }
        let start = scanner.index
        let name = scanner.readRaw(until: "=")
        guard scanner.current == "=" else {
            throw scanner.error(.unexpectedArgument(name, expected: expected), at: start)
        }
        guard isValidName(name) else {
            throw scanner.error(.invalidName(name, reason: nameRule), at: start)
        }
        scanner.index += 1
        let value: String
        if scanner.current == "\"" {
            value = try scanner.readString()
            try scanner.requireSeparator(after: "quote", allowComma: false)
        } else if scanner.current == nil || scanner.current == " " || scanner.current == "\t" {
            value = ""
        } else {
            value = try scanner.nextArgument()?.text ?? ""
        }
        return (name, value)
    }
}
