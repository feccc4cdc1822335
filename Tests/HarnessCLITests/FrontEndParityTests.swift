import Foundation
import TestSupport
import Testing
import Harness
import HarnessSystem
import Stubs
@testable import HarnessFlows
@testable import HarnessSteps

/// Each kind of step, written once as a flow and once as a Swift `AppStep`, run against the same
/// program: both front ends must pass or fail alike, with the same message (the step's text, the
/// problem, the details and the screen), because both are one engine's steps.
@Suite struct FrontEndParityTests {
    /// One row: the steps in both spellings, against the shell program or the todo app.
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var flow: [String]
        var swift: [AppStep]
        var passes: Bool
        var todo = false
        /// A run with pipes (`launch pipes` / `PipedApp`) of `pipesProgram`, its input `stdin`.
        var pipes = false
        /// The todo app against a stub server answering `GET /todos` with `[]` (a flow `stub` line,
        /// the Swift test's own `StubServer`).
        var stub = false
        /// Only the outcome is compared (the message names files that differ by design).
        var outcomeOnly = false
        /// The snapshot the Swift steps record (record mode `missing`, which fails the step), removed after the row.
        var recorded: [String] = []
        var testDescription: String { name }
    }

    /// Prints two lines, then echoes each line it reads (the test's input, never the clock decides).
    /// After `modes` it enables focus reporting, any-event SGR mouse and the kitty keyboard
    /// protocol's flag 1, and echoes each line in hex.
    static let program = """
        #!/bin/sh
        printf 'hello world\\nready\\n'
        while read line; do
          [ "$line" = quit ] && exit 3
          [ "$line" = clear ] && printf '\\033[2J\\033[H' && continue
          [ "$line" = osc ] && printf '\\033]2;a title\\007\\033]52;c;Y29weQ==\\007\\033]8;;https://x.test/\\007link\\033]8;;\\007\\n\\033]133;A\\007$ \\033]133;B\\007(exit 3)\\n\\033]133;C\\007\\033]133;D;3\\007\\n' && continue
          [ "$line" = modes ] && printf '\\033[?1004;1003;1006h\\033[>1umodes on\\n' && hex=1 && continue
          [ -n "$hex" ] && printf 'hex %s\\n' "$(printf '%s' "$line" | od -An -tx1 | tr -d ' \\n')" && continue
          printf 'got %s\\n' "$line"
        done
        """

    /// The file `equals` and `last` compare with (in the build folder: nothing to clean up).
    static let expectedFile = BuildProducts.directory.appendingPathComponent("parity-expected.json").path

    /// Prints to both streams, then exits 2.
    static let pipesProgram = "cat; echo oops >&2; exit 2"

    static let rows: [Row] = [
        Row(name: "expect text", flow: [#"expect "ready""#], swift: [.expect(.text("ready"))], passes: true),
        Row(name: "expect text times out", flow: [#"expect "ready""#, #"expect "absent" within 300ms"#],
            swift: [.expect(.text("ready"), .text("absent", within: .milliseconds(300)))], passes: false),
        Row(name: "any command through .flow", flow: [#"expect "ready""#, #"type "clear\r""#, #"expect-gone "ready" within 5s"#],
            swift: [.expect(.text("ready")), AppStep(.flow(.type("clear\r")),
                                                       expect: .flow(.expectGone(.text("ready"), area: nil, within: .seconds(5))))],
            passes: true),
        Row(name: "expect regex", flow: [#"expect /^re+ady$/"#], swift: [.expect(.regex("^re+ady$"))], passes: true),
        Row(name: "expect in an area", flow: [#"expect "ready""#, #"expect "ready" in rows 0-0 within 300ms"#],
            swift: [.expect(.text("ready"), .text("ready", in: .rows(0...0), within: .milliseconds(300)))], passes: false),
        Row(name: "expect with a style", flow: [#"expect "ready""#, #"expect "ready" style bold within 300ms"#],
            swift: [.expect(.text("ready"), .text("ready", style: TextStyle(bold: true), within: .milliseconds(300)))], passes: false),
        Row(name: "expect-not", flow: [#"expect "ready""#, #"expect-not "ready""#],
            swift: [.expect(.text("ready"), .noText("ready"))], passes: false),
        Row(name: "expect-not regex", flow: [#"expect "ready""#, #"expect-not /^nothing$/"#],
            swift: [.expect(.text("ready"), .noRegex("^nothing$"))], passes: true),
        Row(name: "expect-not in an area", flow: [#"expect "ready""#, #"expect-not "ready" in rows 0-0"#],
            swift: [.expect(.text("ready"), .noText("ready", in: .rows(0...0)))], passes: true),
        Row(name: "expect-not with a style", flow: [#"expect "ready""#, #"expect-not "ready" style bold"#],
            swift: [.expect(.text("ready"), .noText("ready", style: TextStyle(bold: true)))], passes: true),
        Row(name: "expect-not in an area, shown", flow: [#"expect "ready""#, #"expect-not /ready/ in rows 1-1"#],
            swift: [.expect(.text("ready"), .noRegex("ready", in: .rows(1...1)))], passes: false),
        Row(name: "expect-gone", flow: [#"expect "ready""#, #"type "clear\r""#, #"expect-gone "ready""#],
            swift: [.expect(.text("ready")), AppStep(.type("clear\r"), expect: .gone("ready"))], passes: true),
        Row(name: "expect-gone times out", flow: [#"expect "ready""#, #"expect-gone /rea+dy/ in rows 1-1 within 300ms"#],
            swift: [.expect(.text("ready"), .goneRegex("rea+dy", in: .rows(1...1), within: .milliseconds(300)))], passes: false),
        Row(name: "expect-output", flow: [#"expect-output "hello""#], swift: [.expect(.output("hello"))], passes: true),
        Row(name: "expect-output times out", flow: [#"expect-output "ready""#, #"expect-output "absent" within 300ms"#],
            swift: [.expect(.output("ready"), .output("absent", within: .milliseconds(300)))], passes: false),
        Row(name: "expect-output regex", flow: [#"expect-output /wor+ld/"#], swift: [.expect(.outputRegex("wor+ld"))], passes: true),
        Row(name: "expect-output-not", flow: [#"expect "ready""#, #"expect-output-not "hello""#],
            swift: [.expect(.text("ready"), .noOutput("hello"))], passes: false),
        Row(name: "type", flow: [#"expect "ready""#, #"type "abc\r""#, #"expect-output "got abc""#],
            swift: [AppStep(.type("abc\r"), expect: .output("got abc"))], passes: true),
        Row(name: "press", flow: [#"expect "ready""#, #"type "k""#, "press enter", #"expect-output "got k""#],
            swift: [.expect(.text("ready")), AppStep(.type("k")), AppStep(.press(.enter), expect: .output("got k"))], passes: true),
        Row(name: "paste", flow: [#"expect "ready""#, #"paste "xyz""#, "press enter", #"expect-output "got xyz""#],
            swift: [.expect(.text("ready")), AppStep(.paste("xyz")), AppStep(.press(.enter), expect: .output("got xyz"))], passes: true),
        Row(name: "resize", flow: [#"expect "ready""#, "resize 40x10", #"expect "ready""#],
            swift: [.expect(.text("ready")), AppStep(.resize(cols: 40, rows: 10), expect: .text("ready"))], passes: true),
        // What the program reports (OSC 0/2, 8, 52, 133) and the waits added with it.
        Row(name: "expect-command and command-status", flow: [#"expect "ready""#, #"type "osc\r""#, "expect-command", "command-status 3"],
            swift: [.expect(.text("ready")), AppStep(.type("osc\r"), expect: .commandFinished(), .commandStatus(3))], passes: true),
        Row(name: "command-status that differs", flow: [#"expect "ready""#, #"type "osc\r""#, "expect-command", "command-status 0"],
            swift: [.expect(.text("ready")), AppStep(.type("osc\r"), expect: .commandFinished(), .commandStatus(0))], passes: false),
        Row(name: "expect-command without marks", flow: [#"expect "ready""#, "expect-command within 300ms"],
            swift: [.expect(.text("ready"), .commandFinished(within: .milliseconds(300)))], passes: false),
        Row(name: "expect-title", flow: [#"expect "ready""#, #"type "osc\r""#, #"expect-title "a title""#, "expect-title /^a t/"],
            swift: [.expect(.text("ready")), AppStep(.type("osc\r"), expect: .title("a title"), .titleRegex("^a t"))], passes: true),
        Row(name: "expect-title times out", flow: [#"expect "ready""#, #"expect-title "nope" within 300ms"#],
            swift: [.expect(.text("ready"), .title("nope", within: .milliseconds(300)))], passes: false),
        Row(name: "expect-clipboard", flow: [#"expect "ready""#, #"type "osc\r""#, #"expect-clipboard "copy""#],
            swift: [.expect(.text("ready")), AppStep(.type("osc\r"), expect: .clipboard("copy"))], passes: true),
        Row(name: "expect-clipboard times out", flow: [#"expect "ready""#, #"type "osc\r""#, #"expect "link""#,
                                                         #"expect-clipboard /^nope/ within 300ms"#],
            swift: [.expect(.text("ready")), AppStep(.type("osc\r"), expect: .text("link"), .clipboardRegex("^nope", within: .milliseconds(300)))],
            passes: false),
        Row(name: "a link as a style", flow: [#"expect "ready""#, #"type "osc\r""#, #"expect "link" style link=https://x.test/"#],
            swift: [.expect(.text("ready")), AppStep(.type("osc\r"), expect: .text("link", style: .link("https://x.test/")))], passes: true),
        Row(name: "expect-not for a time", flow: [#"expect "ready""#, #"expect-not "absent" for 100ms"#],
            swift: [.expect(.text("ready"), .noText("absent", for: .milliseconds(100)))], passes: true),
        Row(name: "expect-not for a time, shown", flow: [#"expect "ready""#, #"expect-not /ready/ in rows 1-1 for 10s"#],
            swift: [.expect(.text("ready"), .noRegex("ready", in: .rows(1...1), for: .seconds(10)))], passes: false),
        Row(name: "wait-stable in an area", flow: [#"expect "ready""#, "wait-stable 50ms in rows 0-1"],
            swift: [.expect(.text("ready"), .stable(for: .milliseconds(50), in: .rows(0...1)))], passes: true),
        Row(name: "wait-stable", flow: [#"expect "ready""#, "wait-stable 50ms"],
            swift: [.expect(.text("ready"), .stable(for: .milliseconds(50)))], passes: true),
        Row(name: "a click where the program did not ask for the mouse", flow: [#"expect "ready""#, #"click "ready""#],
            swift: [.expect(.text("ready")), AppStep(.click(.text("ready")))], passes: false),
        Row(name: "press with modifiers", flow: [#"expect "ready""#, "press shift-a shift-1 enter", #"expect-output "got A!""#],
            swift: [.expect(.text("ready")), AppStep(.press([.shift(.character("a")), .shift(.character("1")), .enter]),
                                                     expect: .output("got A!"))], passes: true),
        Row(name: "a key xterm's bytes cannot send", flow: [#"expect "ready""#, "press ctrl-enter"],
            swift: [.expect(.text("ready")), AppStep(.press(.ctrl(.enter)))], passes: false),
        Row(name: "focus where the program did not enable it", flow: [#"expect "ready""#, "focus in"],
            swift: [.expect(.text("ready")), AppStep(.focus(.in))], passes: false),
        Row(name: "hover where the program did not ask for the mouse", flow: [#"expect "ready""#, #"hover "ready""#],
            swift: [.expect(.text("ready")), AppStep(.hover(.text("ready")))], passes: false),
        Row(name: "focus, hover and kitty keys", flow: [
                #"expect "ready""#, #"type "modes\r""#, #"expect "modes on""#, "focus in", #"hover "ready""#,
                "press ctrl-enter shift-down enter", #"expect-output "hex 1b5b491b5b3c33353b313b324d1b5b31333b35751b5b313b3242""#,
            ],
            swift: [
                .expect(.text("ready")), AppStep(.type("modes\r"), expect: .text("modes on")), AppStep(.focus(.in)),
                AppStep(.hover(.text("ready"))),
                AppStep(.press([.ctrl(.enter), .shift(.down), .enter]),
                        expect: .output("hex 1b5b491b5b3c33353b313b324d1b5b31333b35751b5b313b3242")),
            ], passes: true),
        Row(name: "exit with the expected status", flow: [#"expect "ready""#, #"type "quit\r""#, "exit 3"],
            swift: [.expect(.text("ready")), AppStep(.type("quit\r"), expect: .exit(.exited(3)))], passes: true),
        Row(name: "exit with another status", flow: [#"expect "ready""#, #"type "quit\r""#, "exit 0"],
            swift: [.expect(.text("ready")), AppStep(.type("quit\r"), expect: .exit(.exited(0)))], passes: false),
        Row(name: "kill", flow: [#"expect "ready""#, "kill"],
            swift: [.expect(.text("ready")), AppStep(.kill)], passes: true),
        Row(name: "file missing from the sandbox", flow: [#"expect "ready""#, "file todos.json exists"],
            swift: [.expect(.text("ready"), .fileExists("todos.json"))], passes: false),
        Row(name: "file not in the sandbox", flow: [#"expect "ready""#, "file todos.json missing"],
            swift: [.expect(.text("ready"), .fileMissing("todos.json"))], passes: true),
        Row(name: "snapshot without a reference", flow: [#"expect "ready""#, "snapshot screen"],
            swift: [.expect(.text("ready"), .snapshot("screen"))], passes: false, outcomeOnly: true,
            recorded: ["bothFrontEndsAgree.screen.txt", "bothFrontEndsAgree.screen.svg"]),
        Row(name: "transcript snapshot without a reference", flow: [#"expect "ready""#, "snapshot-transcript all"],
            swift: [.expect(.text("ready"), .transcriptSnapshot("all"))], passes: false, outcomeOnly: true,
            recorded: ["bothFrontEndsAgree.all.txt"]),
        // The todo app: the bridge.
        Row(name: "event sequence", flow: [#"expect "[ Start ]""#, "event state sequence idle"],
            swift: [.expect(.text("[ Start ]"), .events("state", ["idle"]))], passes: true, todo: true),
        Row(name: "event sequence that differs", flow: [#"expect "[ Start ]""#, "timeout 300ms", "event state sequence idle,loading"],
            swift: [.expect(.text("[ Start ]"), .events("state", ["idle", "loading"]))], passes: false, todo: true),
        Row(name: "spy count", flow: [#"expect "[ Start ]""#, "spy database.save count 0"],
            swift: [.expect(.text("[ Start ]"), .spyCount("database.save", 0))], passes: true, todo: true),
        Row(name: "spy count that differs", flow: [#"expect "[ Start ]""#, "timeout 300ms", "spy database.save count 1"],
            swift: [.expect(.text("[ Start ]"), .spyCount("database.save", 1))], passes: false, todo: true),
        Row(name: "given after launch", flow: [#"expect "[ Start ]""#, "given error", #"expect "Oops""#],
            swift: [.expect(.text("[ Start ]")), AppStep(.given("error"), expect: .text("Oops"))], passes: true, todo: true),
        Row(name: "call", flow: [#"expect "[ Start ]""#, #"call given "\"error\"""#, #"expect "Oops""#],
            swift: [.expect(.text("[ Start ]")), AppStep(.call("given", json: #""error""#), expect: .text("Oops"))], passes: true, todo: true),
        Row(name: "spy last without a call", flow: [#"expect "[ Start ]""#, "timeout 300ms", "spy database.save last \(expectedFile)"],
            swift: [.expect(.text("[ Start ]"), .spyLast("database.save", equals: expectedFile))], passes: false, todo: true),
        Row(name: "file equals, missing", flow: [#"expect "ready""#, "file todos.json equals \(expectedFile)"],
            swift: [.expect(.text("ready"), .file("todos.json", equals: expectedFile))], passes: false),
        // A stub server.
        Row(name: "requests", flow: [#"expect "[ Start ]""#, "press enter", #"expect "Todos (0)""#, "requests GET /todos count 1"],
            swift: [.expect(.text("[ Start ]")), AppStep(.press(.enter), expect: .text("Todos (0)"), .requests("GET", "/todos", count: 1))],
            passes: true, todo: true, stub: true),
        Row(name: "requests that differ", flow: [#"expect "[ Start ]""#, "timeout 300ms", "requests GET /todos count 2"],
            swift: [.expect(.text("[ Start ]"), .requests("GET", "/todos", count: 2))], passes: false, todo: true, stub: true),
        // Pipes.
        Row(name: "stdout contains", flow: [#"stdout contains "abc""#, "exit 2"],
            swift: [.expect(.standardOutput(.contains("abc")), .exit(.exited(2)))], passes: true, pipes: true),
        Row(name: "stderr matches", flow: [#"stderr matches /^oo+ps$/"#],
            swift: [.expect(.standardError(.matches("^oo+ps$")))], passes: true, pipes: true),
        Row(name: "stdout empty, not", flow: ["stdout empty"],
            swift: [.expect(.standardOutput(.empty))], passes: false, pipes: true),
        Row(name: "stderr equals a file that differs", flow: ["stderr equals \(expectedFile)"],
            swift: [.expect(.standardError(.equals(FlowFileReference(written: expectedFile, directory: "/"))))], passes: false, pipes: true),
        Row(name: "exit of a pipes run that differs", flow: ["exit 0"],
            swift: [.expect(.exit(.exited(0)))], passes: false, pipes: true),
        Row(name: "a probe that differs", flow: [#"expect "[ Start ]""#, #"probe state equals "{}""#],
            swift: [.expect(.text("[ Start ]"), .probe("state", equals: "{}"))], passes: false, todo: true),
    ]

    @Test(arguments: rows)
    func bothFrontEndsAgree(_ row: Row) async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        // Read by sh, not executed: a script written while another case forks could not be
        // executed ("Text file busy": another thread's fork holds it open for writing).
        let program = try fixture.write(row.pipes ? Self.pipesProgram : Self.program, at: "program.sh")
        let (executable, arguments) = row.todo ? (try BuildProducts.executable(named: "todo").path, []) : ("/bin/sh", [program])
        let timeout = row.flow.contains { $0.hasPrefix("timeout ") } ? Duration.milliseconds(300) : mustSucceedTimeout
        try Data(#"{"expected": true}"#.utf8).write(to: URL(fileURLWithPath: Self.expectedFile))
        func swiftSteps() -> [AppStep] { row.swift }

        // The flow.
        var header = ["app \(([executable] + arguments).joined(separator: " "))"]
        if row.stub { header.append("stub GET /todos 200 text \"[]\"") }
        if row.pipes { header.append(#"stdin "abc""#) }
        header.append(row.pipes ? "launch pipes" : "launch")
        let outcome = try await fixture.run((header + row.flow).joined(separator: "\n"), options: testOptions(timeout: mustSucceedTimeout))
        let flowMessage: String? = if case .failed(let failure) = outcome { failure.message } else { nil }

        // The same steps in Swift.
        var launch = AppLaunch(executable: executable, arguments: arguments)
        launch.environment = testEnvironment
        launch.defaultTimeout = timeout
        launch.launchProtocol = row.todo ? .bridge : .arguments
        launch.carrier = .environment
        let server = row.stub ? try StubServer() : nil
        defer { server?.stop() }
        if let server {
            server.stub(.get("/todos"), .text("[]"))
            launch.network = server.baseURL
        }
        let reported = Reported()
        try await FailureReporter.withFailureHandler({ message, _ in reported.add(message) }) {
            do {
                if row.pipes {
                    let app = try PipedApp.launch(launch, standardInput: .text("abc"))
                    defer { app.close(failed: false) }
                    try await app.run(swiftSteps(), stubServer: server)
                } else {
                    let app = try await TerminalApp.launch(launch)
                    defer { app.close(failed: false) }
                    try await app.run(swiftSteps(), stubServer: server)
                }
            } catch is AppStepsFailed {
            }
        }
        let references = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent()
            .appendingPathComponent("__Snapshots__/FrontEndParityTests")
        for file in row.recorded { try? FileManager.default.removeItem(at: references.appendingPathComponent(file)) }
        try? FileManager.default.removeItem(at: references)  // only when empty
        try? FileManager.default.removeItem(at: references.deletingLastPathComponent())
        let swiftMessages = reported.messages
        #expect(swiftMessages.count <= 1, "a failed step is reported once")
        let swiftMessage = swiftMessages.first

        #expect((flowMessage == nil) == row.passes, "flow: \(flowMessage ?? "passed")")
        #expect((swiftMessage == nil) == row.passes, "swift: \(swiftMessage ?? "passed")")
        if !row.outcomeOnly {
            #expect(Self.normalized(swiftMessage) == Self.normalized(flowMessage))
        }
    }

    /// Sandbox paths differ between two launches.
    static func normalized(_ message: String?) -> String? {
        message?.replacingOccurrences(of: #"sandbox /\S+:"#, with: "sandbox SANDBOX:", options: .regularExpression)
    }

    /// The messages the failure handler received.
    final class Reported: Sendable {
        private let stored = Locked<[String]>([])
        func add(_ message: String) { stored.withLock { $0.append(message) } }
        var messages: [String] { stored.withLock { $0 } }
    }
}
