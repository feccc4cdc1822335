import HarnessSteps
/// The commands that go through the bridge into the app: spies, events, calls, probes, `given`.
extension FlowParser.LineParser {
    /// `spy NAME count N` or `spy NAME last FILE.json`.
    func spy() throws(FlowParseError) -> FlowCommand {
        let name = try identifier("the spy's name")
        let mode = try argument("\"count N\" or \"last FILE.json\"")
        switch (mode.quoted, mode.text) {
        case (false, "count"): return .spyCount(name: name, count: try count())
        case (false, "last"): return .spyLast(name: name, file: reference(try argument("the JSON file")))
        default:
            throw scanner.error(.unexpectedArgument(mode.text, expected: "\"count\" or \"last\""), column: mode.column)
        }
    }

    /// `event NAME sequence V1,V2,...`.
    func event() throws(FlowParseError) -> FlowCommand {
        let name = try identifier("the event's name")
        try word("sequence")
        guard let values = try scanner.nextList() else { throw missing("the values, comma-separated") }
        return .eventSequence(name: name, values: values.map(\.text))
    }

    /// `call NAME [JSON] [equals JSON]`.
    func call() throws(FlowParseError) -> FlowCommand {
        let name = try identifier("the name of a probe or handler")
        var params: FlowJSON?
        var expected: FlowJSON?
        if let next = try scanner.nextArgument() {
            if !next.quoted, next.text == "equals" {
                expected = try json(try argument("the expected reply: \"JSON\" or FILE.json"))
            } else {
                params = try json(next)
                if let after = try scanner.nextArgument() {
                    guard !after.quoted, after.text == "equals" else {
                        throw scanner.error(.unexpectedArgument(after.text, expected: "\"equals JSON\" or the end of the line"),
                                            column: after.column)
                    }
                    expected = try json(try argument("the expected reply: \"JSON\" or FILE.json"))
                }
            }
        }
        return .call(name: name, params: params, expected: expected)
    }

    /// `probe NAME equals JSON`.
    func probe() throws(FlowParseError) -> FlowCommand {
        let name = try identifier("the probe's name")
        try word("equals")
        return .probe(name: name, expected: try json(try argument("the expected value: \"JSON\" or FILE.json")))
    }

    /// `given NAME` or `given json JSON`.
    func given() throws(FlowParseError) -> FlowCommand {
        let first = try argument("a state's name, or json \"JSON\" / json FILE.json")
        if !first.quoted, first.text == "json" {
            return .given(.json(try json(try argument("the state: \"JSON\" or FILE.json"))))
        }
        guard !first.text.isEmpty else {
            throw scanner.error(.unexpectedArgument("\"\"", expected: "a non-empty state name"), column: first.column)
        }
        return .given(.name(first.text))
    }
}
