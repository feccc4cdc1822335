import HarnessSteps
/// The checks of what the run left (files, requests, the exit) and the end of the program.
extension FlowParser.LineParser {
    /// `file NAME exists|missing|equals FILE`.
    func file() throws(FlowParseError) -> FlowCommand {
        let name = try sandboxName(try argument("the file's name in the sandbox"))
        let mode = try argument("\"exists\", \"missing\" or \"equals FILE\"")
        switch (mode.quoted, mode.text) {
        case (false, "exists"): return .fileExists(name: name)
        case (false, "missing"): return .fileMissing(name: name)
        case (false, "equals"): return .fileEquals(name: name, file: reference(try argument("the expected file")))
        default:
            throw scanner.error(.unexpectedArgument(mode.text, expected: "\"exists\", \"missing\" or \"equals\""), column: mode.column)
        }
    }

    /// `requests METHOD PATH count N`.
    func requests() throws(FlowParseError) -> FlowCommand {
        let method = try method()
        let path = try requestPath()
        try word("count")
        return .requestCount(method: method, path: path, count: try count())
    }

    func exit() throws(FlowParseError) -> FlowCommand {
        let code = try argument("the expected exit status")
        guard let value = Int32(code.text), (0...255).contains(value), code.text.allSatisfy(\.isASCIIDigit) else {
            throw scanner.error(.invalidNumber(code.text, expected: "an exit status 0...255"), column: code.column)
        }
        return .exit(code: value)
    }

    func kill() throws(FlowParseError) -> FlowCommand { .kill }
}
