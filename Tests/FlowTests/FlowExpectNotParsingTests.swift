import Testing
import Harness
import TerminalEmulator
@testable import HarnessFlows
@testable import HarnessSteps

/// `expect-not PATTERN [in AREA] [style ATTRIBUTES...]`: the same options as `expect`'s,
/// without `within` (it checks the screen once).
@Suite struct FlowExpectNotParsingTests {
    static let cases: [(String, FlowCommand)] = [
        (#"expect-not "Error""#, .expectNot(.text("Error"))),
        (#"expect-not "Error" in rows 22-23"#, .expectNot(.text("Error"), area: .rows(22...23))),
        (#"expect-not "Error" style bold fg=red"#, .expectNot(.text("Error"), style: TextStyle(bold: true, foreground: .named(.red)))),
        (#"expect-not /Err(or)?/ style inverse in between "Todos" and "q quit" exclusive"#,
         .expectNot(.regex("Err(or)?"), area: .rows(between: "Todos", and: "q quit", inclusive: false), style: .inverse)),
    ]

    @Test(arguments: cases)
    func parsesAndPrintsBack(line: String, expected: FlowCommand) throws {
        let command = try #require(try parseFlow(after: [line]).steps.last?.command)
        #expect(command == expected)
        #expect(try parseFlow(after: [command.flowText]).steps.last?.command == expected, "printed as \(command.flowText)")
    }

    static let errors: [(String, String)] = [
        (#"expect-not "x" within 1s"#, #"3:16: unexpected "within" (expected "in AREA", "style ATTRIBUTES", "for DURATION", the end of the line)"#),
        (#"expect-not "x" style"#, "3:21: expect-not: missing attributes after style"),
        (#"expect-not "x" style bolt"#, #"3:22: invalid style "bolt": unknown attribute (did you mean "bold"?)"#),
        (#"expect-not "x" in rows 2-1"#, #"3:24: invalid area "2-1": the first of the rows comes after the last"#),
        (#"expect-not "a\nb" style bold"#, #"3:12: unexpected ""a\nb"" (expected text on one row"#),
    ]

    @Test(arguments: errors)
    func malformedLinesAreClearErrors(line: String, expected: String) {
        let errors = parseErrors("app ./todo\nlaunch\n" + line)
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix(expected) == true, "got \(errors)")
    }
}
