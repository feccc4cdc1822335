import Testing
import Harness
import TerminalEmulator
@testable import HarnessFlows
@testable import HarnessSteps

/// What the program reports (shell marks, title, clipboard, links) and the waits added with
/// them: `expect-command`, `command-status`, `expect-title`, `expect-clipboard`, `link=` in
/// styles, `expect-not ... for`, `wait-stable ... in`.
@Suite struct FlowReportedParsingTests {
    static let cases: [(String, FlowCommand)] = [
        ("expect-command", .expectCommand(within: nil)),
        ("expect-command within 10s", .expectCommand(within: .seconds(10))),
        ("command-status 0", .commandStatus(0)),
        ("command-status 255", .commandStatus(255)),
        (#"expect-title "hello""#, .expectTitle(.text("hello"), within: nil)),
        ("expect-title /^vim .*txt$/ within 2s", .expectTitle(.regex("^vim .*txt$"), within: .seconds(2))),
        (#"expect-clipboard "a b""#, .expectClipboard(.text("a b"), within: nil)),
        ("expect-clipboard /^https?:/ within 500ms", .expectClipboard(.regex("^https?:"), within: .milliseconds(500))),
        (#"expect "docs" style link=https://example.com/a?b=c"#,
         .expect(.text("docs"), within: nil, style: TextStyle(link: "https://example.com/a?b=c"))),
        (#"expect "text" style bold not-link within 1s"#, .expect(.text("text"), within: .seconds(1), style: TextStyle(bold: true, link: ""))),
        (#"expect-not "Error" for 2s"#, .expectNot(.text("Error"), during: .seconds(2))),
        (#"expect-not /Err/ for 1s in rows 2-3 style bold"#,
         .expectNot(.regex("Err"), area: .rows(2...3), style: TextStyle(bold: true), during: .seconds(1))),
        ("wait-stable 300ms in rows 0-3", .waitStable(.milliseconds(300), area: .rows(0...3))),
        (#"wait-stable 1s in between "Todos" and "q quit""#, .waitStable(.seconds(1), area: .rows(between: "Todos", and: "q quit"))),
    ]

    @Test(arguments: cases)
    func parsesAndPrintsBack(line: String, expected: FlowCommand) throws {
        let command = try #require(try parseFlow(after: [line]).steps.last?.command)
        #expect(command == expected)
        #expect(try parseFlow(after: [command.flowText]).steps.last?.command == expected, "printed as \(command.flowText)")
    }

    static let errors: [(String, String)] = [
        ("expect-command 5s", #"3:16: unexpected "5s" (expected "within")"#),
        ("expect-command within", "3:22: expect-command: missing a duration after within"),
        ("expect-command within 1s now", #"3:26: unexpected "now" (expected the end of the line)"#),
        ("command-status", "3:15: command-status: missing an exit status 0-255"),
        ("command-status 256", #"3:16: invalid number "256" (expected an exit status 0-255)"#),
        ("command-status -1", #"3:16: invalid number "-1" (expected an exit status 0-255)"#),
        ("command-status 3 4", #"3:18: unexpected "4" (expected the end of the line)"#),
        ("expect-title", "3:13: expect-title: missing \"text\" or /regex/"),
        (#"expect-title "x" in rows 1-2"#, #"3:18: unexpected "in" (expected "within DURATION", the end of the line)"#),
        (#"expect-clipboard "x" for 1s"#, #"3:22: unexpected "for" (expected "within DURATION", the end of the line)"#),
        (#"expect "x" style link="#, #"3:18: invalid style "link=": write link=URI"#),
        (#"expect "x" style link=a not-link"#, #"3:25: invalid style "not-link": link is already given at column 18"#),
        (#"expect-not "x" for 0s"#, #"3:20: invalid duration "0s""#),
        (#"expect-not "x" for 1s for 2s"#, #"3:23: unexpected "for""#),
        (#"expect "x" for 1s"#, #"3:12: unexpected "for""#),
        ("wait-stable 1s rows 0-3", #"3:16: unexpected "rows" (expected "in")"#),
        ("wait-stable 1s in", "3:18: wait-stable: missing an area"),
        ("wait-stable 1s in rows 0-3 x", #"3:28: unexpected "x" (expected the end of the line)"#),
    ]

    @Test(arguments: errors)
    func malformedLinesAreClearErrors(line: String, expected: String) {
        let errors = parseErrors("app ./todo\nlaunch\n" + line)
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix(expected) == true, "got \(errors)")
    }
}
