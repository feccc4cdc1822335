import HarnessSteps
/// `tag` and `matrix`: which runs a flow belongs to.
extension FlowParser.LineParser {
    func tag() throws(FlowParseError) -> FlowCommand {
        var names: [String] = []
        while let argument = try scanner.nextArgument() {
            let valid = !argument.text.isEmpty && argument.text.allSatisfy { $0 == "-" || $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
            guard valid else {
                throw scanner.error(.invalidName(argument.text, reason: "a tag uses letters, digits, - and _"), column: argument.column)
            }
            names.append(argument.text)
        }
        guard !names.isEmpty else { throw missing("a tag name") }
        return .tag(names)
    }

    func matrix() throws(FlowParseError) -> FlowCommand {
        var matrix = FlowMatrix()
        while let argument = try scanner.nextArgument() {
            do {
                try matrix.set(argument.text)
            } catch {
                throw scanner.error(.unexpectedArgument(argument.text, expected: error.expected), column: argument.column)
            }
        }
        guard !matrix.isEmpty else { throw missing("an axis AXIS=V1,V2,... (size, theme or color)") }
        return .matrix(matrix)
    }
}
