import HarnessSteps
import HarnessCore

/// What a flow asks of the requests its stub server receives: the conditions of `stub` routes
/// and `expect-request` lines (`query`, `header`, `body`).
extension FlowParser.LineParser {
    /// The `query NAME ...`, `header NAME ...` and `body ...` conditions after a request path, in
    /// any order (one body); the first other argument is left for the caller.
    func requestMatch() throws(FlowParseError) -> FlowRequestMatch {
        var match = FlowRequestMatch()
        while true {
            let start = scanner.index
            guard let word = try scanner.nextArgument() else { return match }
            guard !word.quoted, ["query", "header", "body"].contains(word.text) else {
                scanner.index = start
                return match
            }
            switch word.text {
            case "query":
                match.query.append(FlowNamedMatch(name: try identifier("the query parameter's name"), value: try valueMatch()))
            case "header":
                match.headers.append(FlowNamedMatch(name: try identifier("the header's name"), value: try valueMatch()))
            default:
                guard match.body == nil else {
                    throw scanner.error(.unexpectedArgument("body", expected: "one body condition per line"), column: word.column)
                }
                match.body = try bodyMatch()
            }
        }
    }

    /// `"VALUE"`, `contains "TEXT"` or `/regex/`.
    private func valueMatch() throws(FlowParseError) -> FlowValueMatch {
        let expected = "\"VALUE\", contains \"TEXT\" or /regex/"
        guard !scanner.isAtEnd() else { throw missing(expected) }
        if scanner.current == "/", case .regex(let regex) = try pattern() { return .regex(regex) }
        let value = try argument(expected)
        if !value.quoted, value.text == "contains" { return .contains(try argument("the text it contains").text) }
        guard value.quoted else { throw scanner.error(.unexpectedArgument(value.text, expected: expected), column: value.column) }
        return .equals(value.text)
    }

    /// `json FILE`, `contains "TEXT"` or `/regex/` (after `body`).
    private func bodyMatch() throws(FlowParseError) -> FlowBodyMatch {
        let expected = "json FILE, contains \"TEXT\" or /regex/"
        guard !scanner.isAtEnd() else { throw missing(expected) }
        if scanner.current == "/", case .regex(let regex) = try pattern() { return .regex(regex) }
        let kind = try argument(expected)
        switch (kind.quoted, kind.text) {
        case (false, "json"): return .json(reference(try argument("the JSON file")))
        case (false, "contains"): return .contains(try argument("the text it contains").text)
        default: throw scanner.error(.unexpectedArgument(kind.text, expected: expected), column: kind.column)
        }
    }

    /// `expect-request METHOD PATH [query|header|body conditions] [count N]`.
    func expectRequest() throws(FlowParseError) -> FlowCommand {
        let method = try method()
        let path = try requestPath()
        let match = try requestMatch()
        var count: Int?
        if let next = try scanner.nextArgument() {
            guard !next.quoted, next.text == "count" else {
                throw scanner.error(.unexpectedArgument(next.text, expected: "query, header, body, count N or the end of the line"),
                                    column: next.column)
            }
            count = try self.count()
        }
        return .expectRequest(FlowRequestExpectation(method: method, path: path, match: match, count: count))
    }

    /// `include FILE`: the file is read and its lines spliced in by ``FlowParser/parse(_:file:directory:)``.
    func include() throws(FlowParseError) -> FlowCommand {
        .include(reference(try argument("the file to include")))
    }
}
