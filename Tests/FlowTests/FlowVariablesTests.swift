import Testing
@testable import HarnessFlows
@testable import HarnessSteps

/// `${NAME}` and `$$` in `app` and `env` lines (docs/FLOWS.md, "The app and its launch").
@Suite struct FlowVariablesTests {
    static let environment = ["HOME": "/home/me", "x": "RUNNER", "A_1": "a"]

    @Test(arguments: [
        ("${HOME}/bin/app", "/home/me/bin/app"),
        ("x=1; echo $${x}", "x=1; echo ${x}"),
        ("$$", "$"),
        ("$$$$", "$$"),
        ("$$${A_1}", "$a"),
        ("${A_1}$$", "a$"),
        ("$HOME and $ alone", "$HOME and $ alone"),
        ("trailing $", "trailing $"),
        ("cost $$5", "cost $5"),
        ("no variables", "no variables"),
        ("$$HOME", "$HOME"),
    ])
    func expands(_ text: String, _ expected: String) throws {
        #expect(try FlowVariables.expand(text, environment: Self.environment) == expected)
    }

    @Test(arguments: [
        ("${MISSING}", FlowVariableError.undefined("MISSING", in: "${MISSING}")),
        ("x=1; echo ${y}", .undefined("y", in: "x=1; echo ${y}")),
        ("${HOME", .unterminated("${HOME")),
        ("$$${HOME", .unterminated("$$${HOME")),
        ("${1x}", .invalidName("1x", in: "${1x}")),
        ("${a b}", .invalidName("a b", in: "${a b}")),
    ])
    func fails(_ text: String, _ expected: FlowVariableError) {
        #expect(throws: expected) { try FlowVariables.expand(text, environment: Self.environment) }
    }

    @Test func errorsSayHowToWriteADollar() {
        let error = FlowVariableError.undefined("x", in: "echo ${x}")
        #expect(error.description == #""echo ${x}": the variable x is not set (write $$ for a $ the program should see: $${x})"#)
    }
}
