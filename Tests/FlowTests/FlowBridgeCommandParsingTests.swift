import Foundation
import HarnessWire
import Testing
import Harness
@testable import HarnessFlows
@testable import HarnessSteps

/// `call`, `probe`, `given`, `set` and `carrier`: what they parse to, how they print, the
/// order rules, and the launch protocol they ask for.
@Suite struct FlowBridgeCommandParsingTests {
    static func file(_ written: String) -> FlowJSON { .file(FlowFileReference(written: written, directory: "/flows")) }

    static let afterLaunchCases: [(String, FlowCommand)] = [
        ("call state", .call(name: "state", params: nil, expected: nil)),
        (#"call given "\"error\"""#, .call(name: "given", params: .inline(#""error""#), expected: nil)),
        ("call given state.json equals reply.json", .call(name: "given", params: file("state.json"), expected: file("reply.json"))),
        (#"call state equals "{\"status\": \"idle\"}""#, .call(name: "state", params: nil, expected: .inline(#"{"status": "idle"}"#))),
        ("probe state equals fixtures/idle.json", .probe(name: "state", expected: file("fixtures/idle.json"))),
        (#"probe count equals "3""#, .probe(name: "count", expected: .inline("3"))),
        ("given error", .given(.name("error"))),
        (#"given "with space""#, .given(.name("with space"))),
        (#"given "json""#, .given(.name("json"))),
        ("given json state.json", .given(.json(file("state.json")))),
        (#"given json "{\"status\": \"error\"}""#, .given(.json(.inline(#"{"status": "error"}"#)))),
    ]

    @Test(arguments: afterLaunchCases)
    func bridgeLinesParseAndPrintBack(line: String, expected: FlowCommand) throws {
        let script = try parseFlow(after: [line])
        let command = try #require(script.stepsAfterLaunch.first?.command)
        #expect(command == expected)
        let reparsed = try parseFlow(after: [command.flowText])
        #expect(reparsed.stepsAfterLaunch.first?.command == expected, "\(command.flowText)")
    }

    static let setupCases: [(String, FlowCommand)] = [
        ("set greeting=hello", .set(key: "greeting", value: "hello")),
        ("set mode=a=b", .set(key: "mode", value: "a=b")),
        (#"set title="two words""#, .set(key: "title", value: "two words")),
        ("set empty=", .set(key: "empty", value: "")),
        ("set dotted.key-1=x", .set(key: "dotted.key-1", value: "x")),
        ("carrier arguments", .carrier(.arguments)),
        ("carrier environment", .carrier(.environment)),
        ("given loading", .given(.name("loading"))),
    ]

    @Test(arguments: setupCases)
    func setupLinesParseAndPrintBack(line: String, expected: FlowCommand) throws {
        let script = try parseFlow(setup: [line])
        #expect(script.steps[1].command == expected)
        #expect(try parseFlow(setup: [expected.flowText]).steps[1].command == expected, "\(expected.flowText)")
    }

    @Test func launchValuesInitialStateAndCarrierReachTheScript() throws {
        let script = try parseFlow(setup: ["set b=2", "set a=1", "given error", "carrier arguments"])
        #expect(script.launchValues == ["a": "1", "b": "2"])
        #expect(script.initialState == "error")
        #expect(script.carrier == .arguments)
        #expect(FlowExecutor.launchProtocol(for: script) == .arguments)
        #expect(try parseFlow().carrier == .environment)
    }

    @Test(arguments: [
        ([String](), [String](), LaunchProtocol.none),
        (["given error"], [], .arguments),
        (["set a=1"], [], .arguments),
        ([], ["given error"], .bridge),
        ([], ["call state"], .bridge),
        ([], ["probe state equals s.json"], .bridge),
    ])
    func theLinesChooseTheLaunchProtocol(setup: [String], after: [String], expected: LaunchProtocol) throws {
        let script = try parseFlow(setup: setup, after: after)
        #expect(FlowExecutor.launchProtocol(for: script) == expected)
        #expect(script.initialState == (setup.contains("given error") ? "error" : nil))
    }

    static let lineErrors: [(String, String)] = [
        ("call", "5:5: call: missing the name of a probe or handler"),
        (#"call state "{bad""#, #"5:12: invalid JSON "{bad": "#),
        ("call state x.json y.json", #"5:19: unexpected "y.json" (expected "equals JSON" or the end of the line)"#),
        ("call state equals", "5:18: call: missing the expected reply"),
        ("probe state", "5:12: probe: missing"),
        ("probe state is x.json", #"5:13: unexpected "is""#),
        (#"probe state equals "[1,""#, #"5:20: invalid JSON "[1,""#),
        ("given", "5:6: given: missing a state's name"),
        (#"given """#, #"5:7: unexpected """" (expected a non-empty state name)"#),
        ("given json", "5:11: given: missing the state"),
    ]

    @Test(arguments: lineErrors)
    func lineErrorsSayWhatWasExpected(line: String, expected: String) {
        let errors = parseErrors("app ./todo\nlaunch\nexpect \"x\"\ntype y\n" + line)
        #expect(errors.count == 1 && errors[0].hasPrefix(expected), "\(errors)")
    }

    static let orderCases: [(String, String)] = [
        ("app ./todo\ngiven json \"{}\"\nlaunch", "2:1: given json before launch: the initial state is a name"),
        ("app ./todo\ngiven a\ngiven b\nlaunch", "3:1: given (the initial state) already given on line 2"),
        ("app ./todo\nset k=1\nset k=2\nlaunch", "3:1: set k already given on line 2"),
        ("app ./todo\ncarrier arguments\ncarrier environment\nlaunch", "3:1: carrier (where the launch options go) already given on line 2"),
        ("app ./todo\nlaunch\nset k=1", "3:1: set must come before launch"),
        ("app ./todo\nlaunch\ncarrier arguments", "3:1: carrier must come before launch"),
        ("app ./todo\ncall state\nlaunch", "2:1: call needs the running app: put it after launch"),
        ("app ./todo\nprobe s equals \"1\"\nlaunch", "2:1: probe needs the running app: put it after launch"),
        ("app ./todo\nlaunch\nkill\ncall state", "4:1: call needs the running app, but kill on line 3 ended it"),
        ("app ./todo\nlaunch\nexit 0\ngiven error", "4:1: given needs the running app, but exit on line 3 ended it"),
        ("app ./todo\nlaunch pipes\ncall state", "3:1: `call` needs a terminal: this flow launches with pipes"),
        ("app ./todo\nlaunch pipes\ngiven error", "3:1: `given` needs a terminal: this flow launches with pipes"),
        ("app ./todo\nset =1\nlaunch", #"2:5: invalid name "": a key uses letters, digits, _, - and ."#),
        ("app ./todo\nset k\nlaunch", #"2:5: unexpected "k" (expected KEY=VALUE)"#),
        ("app ./todo\ncarrier argv\nlaunch", #"2:9: unexpected "argv" (expected arguments or environment)"#),
        ("app ./todo\nenv HARNESS_STORAGE=/tmp\nlaunch", #"2:5: invalid name "HARNESS_STORAGE": the harness sets HARNESS_STORAGE"#),
        ("app ./todo\nenv  HARNESS_SET={}\nlaunch", #"2:6: invalid name "HARNESS_SET": the harness sets HARNESS_SET"#),
    ]

    @Test(arguments: orderCases)
    func orderAndSetupErrors(source: String, expected: String) {
        let errors = parseErrors(source)
        #expect(errors.count == 1 && errors[0].hasPrefix(expected), "\(errors)")
    }

    @Test func givenBeforeAndAfterLaunchAndInPipesBeforeLaunchAreFine() throws {
        _ = try parseFlow(setup: ["given three"], after: ["given empty", "given json s.json", "given empty"])
        _ = try FlowParser.parse("app ./a\ngiven three\nlaunch pipes\nexit 0", file: "t.flow", directory: "/flows")
    }

    @Test func loadChecksTheJSONFilesExist() throws {
        let folder = NSTemporaryDirectory() + "flow-json-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "app ./todo\nlaunch\ncall a p.json equals r.json\nprobe b equals q.json\ngiven json s.json\n"
            .write(toFile: folder + "/t.flow", atomically: true, encoding: .utf8)
        do {
            _ = try FlowParser.load(path: folder + "/t.flow", displayName: "t.flow")
            Issue.record("expected missing files")
        } catch {
            #expect(error.errors.map(\.message).map { String($0.prefix(20)) } == [
                "file \"p.json\" not fo", "file \"r.json\" not fo", "file \"q.json\" not fo", "file \"s.json\" not fo",
            ])
        }
    }
}
