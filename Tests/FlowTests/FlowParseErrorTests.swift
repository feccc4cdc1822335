import Testing
import Harness
@testable import HarnessFlows
@testable import HarnessSteps

@Suite struct FlowParseErrorTests {
    /// A valid prefix: errors below are on line 3 of `app ./todo`, `launch`, then the line.
    static let lineErrors: [(line: String, expected: String)] = [
        ("press entr", #"3:7: unknown key "entr" (did you mean "enter"?)"#),
        ("press enter ctrl-nothing", #"3:13: unknown key "ctrl-nothing""#),
        ("prss enter", #"3:1: unknown command "prss" (did you mean "press"?)"#),
        (#"type "abc"#, "3:6: unterminated string (no closing \" on this line)"),
        (#"type "a\qb""#, #"3:8: invalid escape "\q""#),
        (#"type "\x80""#, #"3:7: invalid escape "\x80""#),
        (#"type "\xZ1""#, #"3:7: invalid escape "\xZ1""#),
        (#"type "\u{110000}""#, #"3:7: invalid escape "\u{110000}""#),
        (#"type "\u1234""#, #"3:7: invalid escape "\u""#),
        (#"type ab"c""#, "3:8: unexpected \" inside a word"),
        (#"type "a"b"#, "3:9: expected a space after the closing quote"),
        (#"type "a" "b""#, #"3:10: unexpected "b" (expected the end of the line)"#),
        ("type", "3:5: type: missing the text to type"),
        ("expect /abc", "3:8: unterminated regex"),
        ("expect /a(b/", "3:8: invalid regex /a(b/: it does not compile"),
        ("expect //", "3:8: invalid regex //: the pattern is empty"),
        (#"expect "a" within"#, "3:18: expect: missing a duration after within"),
        (#"expect "a" within 5"#, #"3:19: invalid duration "5""#),
        (#"expect "a" within 0s"#, #"3:19: invalid duration "0s""#),
        (#"expect "a" inside 5s"#, #"3:12: unexpected "inside" (expected "in AREA", "style ATTRIBUTES", "within DURATION", the end of the line)"#),
        (#"expect """#, #"3:8: unexpected """" (expected non-empty text)"#),
        ("wait-stable fast", #"3:13: invalid duration "fast""#),
        ("resize 80*24", #"3:8: invalid size "80*24""#),
        ("resize 0x24", #"3:8: invalid size "0x24""#),
        ("snapshot ../x", #"3:10: invalid name "../x""#),
        ("spy save cnt 1", #"3:10: unexpected "cnt" (expected "count" or "last")"#),
        ("spy save count -1", #"3:16: invalid number "-1""#),
        ("event state seq a,b", #"3:13: unexpected "seq" (expected "sequence")"#),
        ("event state sequence a,,b", #"3:24: unexpected "," (expected a list element)"#),
        ("event state sequence a,", "3:24: list: missing an element after \",\""),
        ("file /etc/passwd exists", #"3:6: invalid name "/etc/passwd""#),
        ("file a/../b exists", #"3:6: invalid name "a/../b""#),
        ("file a.txt there", #"3:12: unexpected "there" (expected "exists", "missing" or "equals")"#),
        ("requests get /todos count 1", #"3:10: invalid HTTP method "get""#),
        ("requests GET todos count 1", #"3:14: invalid request path "todos""#),
        ("exit 256", #"3:6: invalid number "256" (expected an exit status 0...255)"#),
        ("exit", "3:5: exit: missing the expected exit status"),
        ("kill now", #"3:6: unexpected "now" (expected the end of the line)"#),
        ("timeout 25h", #"3:9: invalid duration "25h""#),
        ("timeout 1.5.0s", #"3:9: invalid duration "1.5.0s""#),
    ]

    @Test(arguments: lineErrors)
    func lineErrorHasPositionAndMessage(line: String, expected: String) {
        let errors = parseErrors("app ./todo\nlaunch\n" + line)
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix(expected) == true, "got \(errors)")
    }

    static let setupErrors: [(line: String, expected: String)] = [
        ("env 1A=x", #"2:5: invalid name "1A""#),
        ("env HARNESS_BRIDGE_TOKEN=abc", #"2:5: invalid name "HARNESS_BRIDGE_TOKEN": the harness sets the bridge token for each launch; a flow cannot set it"#),
        ("env A", #"2:5: unexpected "A" (expected NAME=VALUE)"#),
        (#"env A="x\0y""#, "2:5: the value of A holds a NUL character (\\0), which a program cannot receive"),
        ("env", "2:4: env: missing NAME=VALUE"),
        (#"env A="x"y"#, "2:10: expected a space after the closing quote"),
        ("stub GET /todos 999", #"2:17: invalid number "999" (expected an HTTP status 100...599)"#),
        ("stub GET /todos 200 json a.json text x", #"2:33: unexpected "text""#),
        ("stub GET /todos 200 delay 1s delay 2s", #"2:30: unexpected "delay""#),
        ("stub GET /todos sequence 500,503 json a.json", #"2:34: unexpected "json" (expected no body: the sequence has no 2xx status)"#),
        ("stub GET /todos sequence 500,20", #"2:30: invalid number "20""#),
        ("stub GET /todos", "2:16: stub: missing a status, hang, close or sequence"),
        ("stub GET /todos hang 5s", #"2:22: unexpected "5s" (expected the end of the line)"#),
        ("seed a.json to a.json", #"2:13: unexpected "to" (expected "as")"#),
        ("seed a.json as /abs", #"2:16: invalid name "/abs""#),
        ("size 80", #"2:6: invalid size "80""#),
        ("clock yesterday", #"2:7: invalid clock "yesterday""#),
        ("clock 2023-11-14 22:13", #"2:7: invalid clock "2023-11-14""#),
        ("clock", "2:6: clock: missing an ISO 8601 date and time"),
    ]

    @Test(arguments: setupErrors)
    func setupErrorHasPositionAndMessage(line: String, expected: String) {
        let errors = parseErrors("app ./todo\n" + line + "\nlaunch")
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix(expected) == true, "got \(errors)")
    }

    /// A NUL character (raw, or written `\0`) in the program's path or an argument is an error
    /// naming its line: the program's arguments are C strings, which would end there.
    @Test(arguments: [
        ("app true\u{0}", "1:5: the program's path holds a NUL character"),
        ("app \"tr\\0ue\"", "1:5: the program's path holds a NUL character"),
        ("app sh -c \"exit 0\u{0}; exit 1\"", "1:11: argument 2 holds a NUL character"),
    ])
    func nulInTheProgramOrAnArgumentIsAnError(line: String, expected: String) {
        let errors = parseErrors(line + "\nlaunch")
        #expect(errors.count == 1, "got \(errors)")
        #expect(errors.first?.hasPrefix(expected) == true, "got \(errors)")
    }

    static let orderErrorCases: [(source: String, expected: [String])] = [
        ("launch", ["1:1: the flow has no app line"]),
        ("app ./a", ["1:1: the flow never launches the app"]),
        ("app ./a\ntype \"x\"\nlaunch", ["2:1: type needs the running app: put it after launch"]),
        ("app ./a\nlaunch\nenv A=1", ["3:1: env must come before launch"]),
        ("app ./a\nlaunch\nstub GET /x 200", ["3:1: stub must come before launch"]),
        ("app ./a\napp ./b\nlaunch", ["2:1: app (the program) already given on line 1"]),
        ("app ./a\nlaunch\nlaunch", ["3:1: launch (once per flow) already given on line 2"]),
        ("app ./a\nenv A=1\nenv A=2\nlaunch", ["3:1: env A already given on line 2"]),
        ("app ./a\nsize 80x24\nsize 100x30\nlaunch", ["3:1: size (the launch size) already given on line 2"]),
        ("app ./a\nclock 2023-11-14T22:13:20Z\nclock 2024-01-01T00:00:00Z\nlaunch", ["3:1: clock (the frozen clock) already given on line 2"]),
        ("app ./a\nlaunch\nclock 2023-11-14T22:13:20Z", ["3:1: clock must come before launch"]),
        ("app ./a\nstub GET /x 200\nstub GET /x 500\nlaunch", ["3:1: stub GET /x already given on line 2"]),
        ("app ./a\nlaunch\nsnapshot a\nsnapshot a", ["4:1: snapshot a already given on line 3"]),
        ("app ./a\nlaunch\nexit 0\npress enter", ["4:1: press needs the running app, but exit on line 3 ended it"]),
        ("app ./a\nlaunch\nkill\nkill", ["4:1: kill needs the running app, but kill on line 3 ended it"]),
        ("app ./a\nlaunch\nkill\nwait-stable 1s", ["4:1: wait-stable needs the running app, but kill on line 3 ended it"]),
        ("launch\napp ./a", ["1:1: launch before app", "2:1: app must come before launch"]),
        ("", ["1:1: the flow has no app line", "1:1: the flow never launches the app"]),
    ]

    @Test(arguments: orderErrorCases)
    func orderErrors(source: String, expected: [String]) {
        let errors = parseErrors(source)
        #expect(errors.count == expected.count, "got \(errors)")
        for (error, prefix) in zip(errors, expected) {
            #expect(error.hasPrefix(prefix), "got \(error)")
        }
    }

    @Test func allErrorsOfAFileAreReportedInLineOrder() {
        let source = """
        app ./todo
        stub GET /todos 99
        launch
        press entr
        type "unterminated
        expect /(/
        bogus
        """
        let errors = parseErrors(source)
        #expect(errors.map { $0.prefix(4) } == ["2:17", "4:7:", "5:6:", "6:8:", "7:1:"])
    }

    @Test func aBrokenAppOrLaunchLineDoesNotAlsoReportItMissing() {
        #expect(parseErrors("app\nlaunch").count == 1)
        #expect(parseErrors("app ./a\nlaunch now").count == 1)
    }

    @Test func descriptionHasFileLineColumn() throws {
        do {
            _ = try FlowParser.parse("app ./a\nlaunch\n# comment\n\n\n\npress   entr", file: "login.flow", directory: "/")
            Issue.record("expected an error")
        } catch {
            #expect(error.errors.first?.description == #"login.flow:7:9: unknown key "entr" (did you mean "enter"?)"#)
            #expect(error.description.hasSuffix("\n1 error"))
        }
    }

    @Test func unknownCommandWithoutSuggestionListsCommands() {
        let errors = parseErrors("zzzzzz\napp ./a\nlaunch")
        #expect(errors.count == 1)
        #expect(errors.first?.contains("commands: app, env") == true)
    }
}
