import Foundation
import TestSupport
import Testing
import Harness
import HarnessWire
@testable import HarnessFlows
@testable import HarnessSteps

/// `call`, `probe`, `given`, `set` and `carrier` run against the todo app (the Swift host) and
/// Python apps (Harness/hosts/python): passing, and failing against deliberately wrong apps
/// with a headline that names the cause.
@Suite struct BridgeCallFlowTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardized.path
    static let hostDirectory = repository + "/Harness/hosts/python"

    // MARK: - The todo app (HarnessHost)

    @Test(arguments: LaunchCarrier.allCases)
    func givenBeforeAndAfterLaunchAndCallsReachTheTodoApp(carrier: LaunchCarrier) async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try fixture.write(#"{"status": "error", "reason": "Disk full", "selection": 0, "scrollOffset": 0, "pageSize": 22}"#,
                          at: "error.json")
        let outcome = try await fixture.run("""
            app ${HARNESS_PRODUCTS_DIR}/todo
            carrier \(carrier.rawValue)
            given loading
            launch
            expect "Loading"
            given json "{\\"status\\": \\"error\\", \\"reason\\": \\"Disk full\\"}"
            expect "Disk full"
            probe state equals error.json
            call given "\\"idle\\"" equals "\\"idle\\""
            expect "[ Start ]"
            event state sequence loading,error,idle
            press q
            exit 0
            """)
        #expect(outcome == .passed)
    }

    @Test(arguments: [
        (#"probe state equals "{\"status\": \"loaded\"}""#, #"the probe's value differs from "{\"status\": \"loaded\"}""#),
        (#"call given "\"error\"" equals "\"idle\"""#, #"the reply differs from "\"idle\"""#),
        ("call stat", "the app refused the call: it exposes no probe or handler named stat"),
        ("given nowhere", "the app refused the call (badParams)"),
    ])
    func wrongExpectationsFailAgainstTheTodoApp(line: String, headline: String) async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let failed = try #require(failure(of: try await fixture.run("""
            app ${HARNESS_PRODUCTS_DIR}/todo
            launch
            expect "[ Start ]"
            \(line)
            """)))
        #expect(failed.position?.line == 4)
        #expect(failed.summary.contains(headline), "\(failed.message)")
    }

    // MARK: - Programs without a host

    /// A running program that links no host fails the flow's launch at its first output, not
    /// after the wait for the bridge: the timeout is an hour (3600s), so a test that ends at all did
    /// not wait for it, and the headline says the program wrote without connecting (not "within").
    @Test(arguments: [
        (program: "bc -q", needs: "bc"),  // bc writes its readline's bracketed-paste switch, then reads
        (program: #"sh -c "echo hello; exec cat""#, needs: "sh"),
    ])
    func aRunningProgramWithoutAHostFailsTheBridgeLinesAtItsFirstOutput(program: String, needs: String) async throws {
        guard isInstalled(needs) else { return }
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let failed = try #require(failure(of: try await fixture.run("""
            app \(program)
            timeout 3600s
            launch
            call state
            """)))
        #expect(failed.position?.line == 3)
        #expect(failed.summary.contains("`call` on line 4 needs the bridge, but ")
                && failed.summary.contains(" wrote to its terminal and never connected to it"), "\(failed.message)")
        #expect(failed.message.contains("need a program that links a harness host"), "\(failed.message)")
        #expect(!failed.message.contains("within") && !failed.message.contains("launchProtocol"), "\(failed.message)")
    }

    // MARK: - Python apps (Harness/hosts/python)

    @Test(.enabled(if: isInstalled("python3")), arguments: ["bridge.flow", "pipes.flow"])
    func theBundledPythonFlowsPass(name: String) async throws {
        let path = Self.repository + "/Tests/Flows/python-host/" + name
        let script = try FlowParser.load(path: path, displayName: name)
        let outcome = await FlowExecutor(options: testOptions()).run(
            script, flow: FlowFile(path: path, relativePath: name))
        #expect(outcome == .passed)
    }

    /// Why flows use the environment: with `carrier arguments` the flags go after the program
    /// path, `python3` refuses them, and the bridge never comes up.
    @Test(.enabled(if: isInstalled("python3")))
    func theArgumentsCarrierCannotReachAScriptRunByAnInterpreter() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try fixture.write(Self.brokenApp, at: "broken.py")
        let failed = try #require(failure(of: try await fixture.run("""
            app python3 broken.py \(Self.hostDirectory)
            carrier arguments
            launch
            call items
            """)))
        #expect(failed.position?.line == 3)
        // python3 writes its usage to the terminal before exiting: that first output ends the launch.
        #expect(failed.summary.contains("`call` on line 4 needs the bridge, but ")
                && failed.summary.contains("python3 wrote to its terminal and never connected to it"), "\(failed.message)")
        #expect(failed.message.contains("unknown option --harness-"), "\(failed.message)")
        #expect(failed.message.contains("With `carrier arguments` the launch options are flags after the program path"), "\(failed.message)")
    }

    /// A Python app whose answers are wrong in every way a check can see.
    static let brokenApp = """
        import os, sys, threading
        sys.path.insert(0, sys.argv[1])
        import harness_host
        launch = harness_host.start_or_exit(app_name="broken")
        host = launch.host
        host.probe("items", lambda: [{"title": "apples", "done": True}])
        def given(params):
            if params == "bad":
                raise harness_host.BadParams("unknown sample 'bad'")
            return 99
        host.handle("given", given)
        host.handle("stuck", lambda params: threading.Event().wait())
        host.handle("crash", lambda params: os._exit(3))
        def garble(params):
            host._sock.sendall(b"\\x00\\x00\\x00\\x05hello")
            return 1
        host.handle("garble", garble)
        host.publish("count", 1)
        host.ready()
        print("broken app ready", flush=True)
        sys.stdin.readline()
        """

    @Test(.enabled(if: isInstalled("python3")), arguments: [
        (#"probe items equals "[{\"title\": \"apples\", \"done\": false}]""#,
         #"the probe's value differs from "[{\"title\": \"apples\", \"done\": false}]""#),
        (#"call given "\"three\"" equals "3""#, #"the reply differs from "3""#),
        ("call nope", "the app refused the call: it exposes no probe or handler named nope"),
        ("given bad", "the app refused the call (badParams): unknown sample 'bad'"),
        ("call stuck", "the app did not answer stuck within 300ms (waited "),
        ("call crash", "the app exited with code 3 while waiting for the reply to crash"),
        ("call garble", "the harness dropped the app's bridge (a malformed frame) while waiting for the reply to garble"),
        ("event count sequence 2", "the events count were 1"),
    ])
    func checksFailAgainstABrokenPythonApp(line: String, headline: String) async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try fixture.write(Self.brokenApp, at: "broken.py")
        // Only the checks that can fail by waiting (a handler that never answers, an event
        // that never comes) get a short timeout: a wait that ends in an answer may take as long
        // as a loaded machine takes, and its outcome must not depend on that.
        let timeout = line == "call stuck" || line.hasPrefix("event ") ? "300ms" : "120s"
        let failed = try #require(failure(of: try await fixture.run("""
            app python3 broken.py \(Self.hostDirectory)
            timeout \(timeout)
            launch
            expect "broken app ready" within 10s
            \(line)
            """)))
        #expect(failed.position?.line == 5)
        #expect(failed.summary.contains(headline), "\(failed.message)")
    }
}
