import Testing
import Harness
@testable import HarnessFlows
@testable import HarnessSteps

/// `click`, `double-click`, `drag` and `scroll`: what they parse to, how they print, and the
/// errors of bad forms (`focus`'s too) and bad places.
@Suite struct FlowMouseParsingTests {
    static let cases: [(String, FlowCommand)] = [
        (#"click "OK""#, .click(.text("OK"))),
        ("click 3,10", .click(.cell(row: 3, col: 10))),
        ("click 0,0", .click(.cell(row: 0, col: 0))),
        (#"click "3,10""#, .click(.text("3,10"))),
        (#"double-click "file.txt""#, .doubleClick(.text("file.txt"))),
        ("double-click 4095,4095", .doubleClick(.cell(row: 4095, col: 4095))),
        ("drag 1,0 to 1,20", .drag(from: .cell(row: 1, col: 0), to: .cell(row: 1, col: 20))),
        (#"drag "a" to 2,2"#, .drag(from: .text("a"), to: .cell(row: 2, col: 2))),
        ("scroll down at 5,0", .scroll(.down, count: 1, at: .cell(row: 5, col: 0))),
        (#"scroll up 3 at "Log""#, .scroll(.up, count: 3, at: .text("Log"))),
        ("scroll down 1 at 0,0", .scroll(.down, count: 1, at: .cell(row: 0, col: 0))),
    ]

    @Test(arguments: cases)
    func parses(line: String, expected: FlowCommand) throws {
        let script = try parseFlow(after: [line])
        #expect(script.steps.last?.command == expected)
    }

    @Test(arguments: cases)
    func printsALineThatParsesBackEqual(line: String, expected: FlowCommand) throws {
        let text = expected.flowText
        let script = try parseFlow(after: [text])
        #expect(script.steps.last?.command == expected, "\(text)")
    }

    @Test func printedForms() {
        #expect(FlowCommand.scroll(.down, count: 1, at: .cell(row: 5, col: 0)).flowText == "scroll down at 5,0")
        #expect(FlowCommand.scroll(.up, count: 3, at: .text("a \"b\"")).flowText == #"scroll up 3 at "a \"b\"""#)
        #expect(FlowCommand.drag(from: .cell(row: 1, col: 0), to: .text("x")).flowText == #"drag 1,0 to "x""#)
        #expect(FlowCommand.doubleClick(.cell(row: 2, col: 3)).flowText == "double-click 2,3")
    }

    static let badForms: [(String, String)] = [
        ("click", #"3:6: click: missing "text" (quoted) or a 0-based cell ROW,COL such as 3,10"#),
        ("click OK", #"3:7: unexpected "OK" (expected "text" (quoted) or a 0-based cell ROW,COL such as 3,10)"#),
        ("click 3", #"3:7: unexpected "3" (expected "text" (quoted) or a 0-based cell ROW,COL such as 3,10)"#),
        ("click 3,", #"3:7: unexpected "3," (expected "text" (quoted) or a 0-based cell ROW,COL such as 3,10)"#),
        ("click -1,2", #"3:7: unexpected "-1,2" (expected "text" (quoted) or a 0-based cell ROW,COL such as 3,10)"#),
        ("click 1,2,3", #"3:7: unexpected "1,2,3" (expected "text" (quoted) or a 0-based cell ROW,COL such as 3,10)"#),
        ("click 5000,1", #"3:7: invalid number "5000,1" (expected a row and a column 0...4095)"#),
        (#"click """#, #"3:7: unexpected """" (expected non-empty text)"#),
        (#"click "OK" now"#, #"3:12: unexpected "now" (expected the end of the line)"#),
        ("drag 1,1", #"3:9: drag: missing "to""#),
        ("drag 1,1 onto 2,2", #"3:10: unexpected "onto" (expected "to")"#),
        ("drag 1,1 to", #"3:12: drag: missing "text" (quoted) or a 0-based cell ROW,COL such as 3,10"#),
        ("scroll", #"3:7: scroll: missing "up" or "down""#),
        ("scroll left at 1,1", #"3:8: unexpected "left" (expected "up" or "down")"#),
        (#"scroll "up" at 1,1"#, #"3:8: unexpected "up" (expected "up" or "down")"#),
        ("focus", #"3:6: focus: missing "in" or "out""#),
        ("focus sideways", #"3:7: unexpected "sideways" (expected "in" or "out")"#),
        (#"focus "in""#, #"3:7: unexpected "in" (expected "in" or "out")"#),
        ("scroll up", #"3:10: scroll: missing "at" and where to scroll, or a count"#),
        ("scroll up 0 at 1,1", #"3:11: invalid number "0" (expected a count of wheel notches 1...9999, or "at")"#),
        ("scroll up 3", #"3:12: scroll: missing "at""#),
        ("scroll up 3 1,1", #"3:13: unexpected "1,1" (expected "at")"#),
        ("scroll up at", #"3:13: scroll: missing "text" (quoted) or a 0-based cell ROW,COL such as 3,10"#),
    ]

    @Test(arguments: badForms)
    func badFormsAreErrorsAtTheirColumn(line: String, expected: String) {
        #expect(parseErrors("app ./todo\nlaunch\n\(line)") == [expected])
    }

    @Test(arguments: ["click 1,1", #"double-click "x""#, "drag 1,1 to 2,2", "scroll up at 0,0"])
    func mouseCommandsNeedTheRunningAppInATerminal(line: String) {
        let keyword = String(line.prefix { $0 != " " })
        #expect(parseErrors("app ./todo\n\(line)\nlaunch") == ["2:1: \(keyword) needs the running app: put it after launch"])
        #expect(parseErrors("app ./todo\nlaunch\nexit 0\n\(line)")
            == ["4:1: \(keyword) needs the running app, but exit on line 3 ended it"])
        #expect(parseErrors("app ./todo\nlaunch pipes\n\(line)")
            == ["3:1: `\(keyword)` needs a terminal: this flow launches with pipes"])
    }
}
