import Testing
import Harness
import TerminalEmulator
@testable import HarnessFlows
@testable import HarnessSteps

/// `expect-gone PATTERN [in AREA] [within DURATION]`: what it parses to, how it prints back,
/// its errors, and where it may appear.
@Suite struct FlowExpectGoneParsingTests {
    static let cases: [(String, FlowCommand)] = [
        (#"expect-gone "Saving…""#, .expectGone(.text("Saving…"), area: nil, within: nil)),
        (#"expect-gone /Saving\.{1,3}/ within 2s"#, .expectGone(.regex(#"Saving\.{1,3}"#), area: nil, within: .seconds(2))),
        (#"expect-gone "OK" in between "Save?" and "Cancel""#,
         .expectGone(.text("OK"), area: .rows(between: "Save?", and: "Cancel"), within: nil)),
        (#"expect-gone "x" within 500ms in rows 2-4 cols 0-9"#,
         .expectGone(.text("x"), area: .rectangle(ScreenRegion(row: 2, col: 0, width: 10, height: 3)), within: .milliseconds(500))),
    ]

    @Test(arguments: cases)
    func parsesAndPrintsBack(line: String, expected: FlowCommand) throws {
        let command = try #require(try parseFlow(after: [line]).steps.last?.command)
        #expect(command == expected)
        #expect(command.keyword == .expectGone)
        #expect(try parseFlow(after: [command.flowText]).steps.last?.command == expected, "printed as \(command.flowText)")
    }

    static let errors: [(String, String)] = [
        ("expect-gone", "3:12: expect-gone: missing \"text\" or /regex/"),
        (#"expect-gone "x" style bold"#, #"3:17: unexpected "style" (expected "in AREA", "within DURATION", the end of the line)"#),
        (#"expect-gone "x" within 0s"#, #"3:24: invalid duration "0s""#),
        (#"expect-gone "x" in rows 1 in rows 2"#, #"3:27: unexpected "in" (expected "within DURATION", the end of the line)"#),
        (#"expect-gone "a\nb" in rows 1"#, #"3:13: unexpected ""a\nb"" (expected text on one row"#),
    ]

    @Test(arguments: errors)
    func malformedLinesAreClearErrors(line: String, expected: String) {
        let errors = parseErrors("app ./todo\nlaunch\n" + line)
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix(expected) == true, "got \(errors)")
    }

    @Test func itReadsTheScreenOfALaunchedTerminalRun() {
        #expect(parseErrors("app ./t\nexpect-gone \"x\"\nlaunch") == ["2:1: expect-gone needs the running app: put it after launch"])
        #expect(parseErrors("app ./t\nlaunch\nkill\nexpect-gone \"x\"") == [])
        #expect(parseErrors("app ./t\nlaunch pipes\nexpect-gone \"x\"")
            == ["3:1: `expect-gone` needs a terminal: this flow launches with pipes"])
    }
}
