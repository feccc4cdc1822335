import Testing
import Harness
import TerminalEmulator
@testable import HarnessFlows
@testable import HarnessSteps

/// `expect ... in AREA style ...` and `snapshot NAME AREA`: what they parse to, how they print
/// back (FlowCommand+FlowText), and the error of each malformed line.
@Suite struct FlowStyleParsingTests {
    static let cases: [(String, FlowCommand)] = [
        (#"expect "Oops" style bold fg=red"#,
         .expect(.text("Oops"), within: nil, style: TextStyle(bold: true, foreground: .named(.red)))),
        (#"expect /O+ps/ style bold not-italic fg=196 bg=#102030 within 2s"#,
         .expect(.regex("O+ps"), within: .seconds(2),
                 style: TextStyle(bold: true, italic: false, foreground: .palette(196), background: .rgb(16, 32, 48)))),
        (#"expect "x" style underline inverse dim blink hidden strikethrough fg=default bg=bright-cyan"#,
         .expect(.text("x"), within: nil, style: TextStyle(
            dim: true, underline: true, blink: true, inverse: true, hidden: true, strikethrough: true,
            foreground: .default, background: .named(.brightCyan)))),
        (#"expect "x" style plain"#, .expect(.text("x"), within: nil, style: .plain)),
        (#"expect "x" style plain bold"#, .expect(.text("x"), within: nil, style: TextStyle.plain.and(.bold))),
        (#"expect "milk" in rows 2-10"#, .expect(.text("milk"), within: nil, area: .rows(2...10))),
        (#"expect "milk" in rows 3"#, .expect(.text("milk"), within: nil, area: .rows(3...3))),
        (#"expect "milk" in rows 2-10 cols 0-39 style bold"#,
         .expect(.text("milk"), within: nil, area: .rectangle(ScreenRegion(row: 2, col: 0, width: 40, height: 9)), style: .bold)),
        (#"expect "milk" within 1s in between "Todos" and "q quit""#,
         .expect(.text("milk"), within: .seconds(1), area: .rows(between: "Todos", and: "q quit"))),
        (#"expect "milk" style italic in between Todos and "q quit" exclusive"#,
         .expect(.text("milk"), within: nil, area: .rows(between: "Todos", and: "q quit", inclusive: false), style: .italic)),
        ("snapshot list rows 2-10", .snapshot(name: "list", area: .rows(2...10))),
        (#"snapshot list between "Todos" and "q quit""#, .snapshot(name: "list", area: .rows(between: "Todos", and: "q quit"))),
        (#"snapshot list between "Todos" and "q quit" exclusive"#,
         .snapshot(name: "list", area: .rows(between: "Todos", and: "q quit", inclusive: false))),
        ("snapshot corner rows 0 cols 70-79", .snapshot(name: "corner", area: .rectangle(ScreenRegion(row: 0, col: 70, width: 10, height: 1)))),
    ]

    @Test(arguments: cases)
    func parsesAndPrintsBack(line: String, expected: FlowCommand) throws {
        let script = try parseFlow(after: [line])
        let command = try #require(script.steps.last?.command)
        #expect(command == expected)
        let printed = command.flowText
        let reparsed = try parseFlow(after: [printed]).steps.last?.command
        #expect(reparsed == expected, "printed as \(printed)")
    }

    @Test func printsInACanonicalOrder() throws {
        let command = try #require(try parseFlow(after: [#"expect "a" within 2s style fg=red bold in rows 1-2"#]).steps.last?.command)
        #expect(command.flowText == #"expect "a" in rows 1-2 style bold fg=red within 2s"#)
        #expect(FlowCommand.snapshot(name: "x", area: .rows(between: "a b", and: "c")).flowText == #"snapshot x between "a b" and "c""#)
    }

    static let errors: [(String, String)] = [
        (#"expect "a" style bolt"#, #"3:18: invalid style "bolt": unknown attribute (did you mean "bold"?)"#),
        (#"expect "a" style blinking"#, #"3:18: invalid style "blinking": unknown attribute; attributes are bold, dim, italic"#),
        (#"expect "a" style bold=false"#, #"3:18: invalid style "bold=false": unknown attribute"#),
        (#"expect "a" style fg=reddish"#, #"3:18: invalid style "fg=reddish": unknown color "reddish""#),
        (#"expect "a" style fg=gren"#, #"3:18: invalid style "fg=gren": unknown color "gren" (did you mean "green"?)"#),
        (#"expect "a" style bg=256"#, #"3:18: invalid style "bg=256": unknown color "256""#),
        (#"expect "a" style fg=#12345"#, #"3:18: invalid style "fg=#12345": unknown color"#),
        (#"expect "a" style"#, "3:17: expect: missing attributes after style"),
        (#"expect "a" style bold not-bold"#, #"3:23: invalid style "not-bold": bold is already given at column 18"#),
        (#"expect "a" style fg=red fg=blue"#, #"3:25: invalid style "fg=blue": fg is already given at column 18"#),
        (#"expect "a" style bold plain"#, #"3:23: invalid style "plain": plain sets every attribute and color; write it first"#),
        (#"expect "a" style "bold""#, #"3:18: invalid style "bold": write attributes and colors as bare words"#),
        (#"expect "a" style bold style italic"#, #"3:23: invalid style "style": unknown attribute"#),
        (#"expect "a" in rows"#, "3:19: expect: missing the rows, A-B (0-based, inclusive)"),
        (#"expect "a" in rows 10-2"#, #"3:20: invalid area "10-2": the first of the rows comes after the last"#),
        (#"expect "a" in rows two"#, #"3:20: invalid area "two": rows are written A-B or A, 0-based numbers up to 9999"#),
        (#"expect "a" in rows 1-2-3"#, #"3:20: invalid area "1-2-3""#),
        (#"expect "a" in rows -1"#, #"3:20: invalid area "-1""#),
        (#"expect "a" in rows 1-2 cols x"#, #"3:29: invalid area "x": cols are written A-B or A"#),
        (#"expect "a" in lines 1-2"#, #"3:15: invalid area "lines": write rows A-B (0-based, e.g. rows 2-10)"#),
        (#"expect "a" in"#, "3:14: expect: missing an area"),
        (#"expect "a" in between "x" "y""#, #"3:27: unexpected "y" (expected "and")"#),
        (#"expect "a" in between "" and "y""#, #"3:23: invalid area "": an anchor is non-empty text on one row"#),
        (#"expect "a" in rows 1 in rows 2"#, #"3:22: unexpected "in" (expected "style ATTRIBUTES", "within DURATION", the end of the line)"#),
        (#"expect "a\nb" style bold"#, #"3:8: unexpected ""a\nb"" (expected text on one row"#),
        ("snapshot list rows", "3:19: snapshot: missing the rows"),
        ("snapshot list cols 1-2", #"3:15: invalid area "cols""#),
        ("snapshot list rows 1-2 extra", #"3:24: unexpected "extra" (expected the end of the line)"#),
        ("snapshot-transcript all rows 1-2", #"3:25: unexpected "rows" (expected the end of the line)"#),
    ]

    @Test(arguments: errors)
    func malformedLinesAreClearErrors(line: String, expected: String) {
        let errors = parseErrors("app ./todo\nlaunch\n" + line)
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix(expected) == true, "got \(errors)")
    }
}
