import Foundation
import Testing
import Harness
import HarnessCore
@testable import HarnessFlows
@testable import HarnessSteps
import TestSupport

/// What a flow's program sees of the runner's environment (docs/FLOWS.md, "What the program's
/// environment holds"), and `$$` in `app` and `env` lines.
@Suite struct ProgramEnvironmentFlowTests {
    /// The runner's `TERM` (none, xterm, dumb), with colour, terminal and locale variables that
    /// must not reach the program.
    static let runners: [[String: String]] = [[:], ["TERM": "xterm"], ["TERM": "dumb"]].map { terminal in
        var extra = terminal
        for name in ["NO_COLOR", "FORCE_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "COLUMNS", "TMUX"] { extra[name] = "1" }
        extra["COLORTERM"] = "24bit"
        extra["LC_ALL"] = "de_DE.UTF-8"
        extra["LANGUAGE"] = "de"
        extra["LANG"] = "de_DE.UTF-8"
        return extra
    }

    static let printer = #"printf 'TERM=[%s] COLORTERM=[%s] LANG=[%s] LC_ALL=[%s] LANGUAGE=[%s] NO_COLOR=[%s] FORCE_COLOR=[%s] CLICOLOR=[%s] CLICOLOR_FORCE=[%s] COLUMNS=[%s] TMUX=[%s] HOME=[%s]\n' "${TERM--}" "${COLORTERM--}" "${LANG--}" "${LC_ALL--}" "${LANGUAGE--}" "${NO_COLOR--}" "${FORCE_COLOR--}" "${CLICOLOR--}" "${CLICOLOR_FORCE--}" "${COLUMNS--}" "${TMUX--}" "${HOME--}""#

    static func documented(term: String, colorterm: String) -> String {
        "TERM=[\(term)] COLORTERM=[\(colorterm)] LANG=[C.UTF-8] LC_ALL=[-] LANGUAGE=[-] NO_COLOR=[-] FORCE_COLOR=[-] "
            + "CLICOLOR=[-] CLICOLOR_FORCE=[-] COLUMNS=[-] TMUX=[-] HOME=[\(testEnvironment["HOME"] ?? "")]"
    }

    /// The printer's line, quoted for an `app sh -c "..."` line.
    static var quotedPrinter: String {
        printer.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "$", with: "$$")
    }

    @Test(arguments: runners)
    func aTerminalFlowSeesTheDocumentedEnvironment(runner: [String: String]) async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outcome = try await fixture.run("""
            app sh -c "\(Self.quotedPrinter); exec cat"
            size 200x4
            launch
            expect "\(Self.documented(term: "xterm-256color", colorterm: "truecolor"))"
            """, options: testOptions(extra: runner))
        #expect(outcome == .passed)
    }

    @Test(arguments: runners)
    func aPipesFlowSeesTheDocumentedEnvironment(runner: [String: String]) async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outcome = try await fixture.run("""
            app sh -c "\(Self.quotedPrinter)"
            launch pipes
            stdout contains "\(Self.documented(term: "dumb", colorterm: "-"))"
            exit 0
            """, options: testOptions(extra: runner))
        #expect(outcome == .passed)
    }

    /// `env` lines win over the table.
    @Test func envLinesWin() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outcome = try await fixture.run("""
            app sh -c "\(Self.quotedPrinter); exec cat"
            env TERM=xterm
            env COLORTERM=
            env NO_COLOR=1
            env LC_ALL=C
            size 200x4
            launch
            expect "TERM=[xterm] COLORTERM=[] LANG=[C.UTF-8] LC_ALL=[C] LANGUAGE=[-] NO_COLOR=[1] "
            """, options: testOptions(extra: Self.runners[1]))
        #expect(outcome == .passed)
    }

    /// The bundled error flow (style checks on the todo app's colours, snapshots) gives the same
    /// screens with `TERM=xterm`, `TERM=dumb` (and `NO_COLOR=1`) in the runner's environment as
    /// with no `TERM`; and `tput colors` says 256.
    @Test(arguments: runners)
    func theSameScreensWhateverTheRunnersTerm(runner: [String: String]) async throws {
        let root = DocumentedExamples.packageRoot(fromTestFile: #filePath).path
        let path = root + "/Tests/Flows/error.flow"
        let script = try FlowParser.load(path: path, displayName: "Tests/Flows/error.flow")
        let outcome = await FlowExecutor(options: testOptions(extra: runner)).run(
            script, flow: FlowFile(path: path, relativePath: "Tests/Flows/error.flow"), attempt: 1)
        #expect(outcome == .passed)

        guard isInstalled("tput") else { return }
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let colors = try await fixture.run("""
            app sh -c "tput setaf 1; echo colors=$$(tput colors); tput sgr0; exec cat"
            launch
            expect "colors=256" style fg=red
            """, options: testOptions(extra: runner))
        #expect(colors == .passed)
    }

    // MARK: - $$

    /// `$$` is one `$`: the program's shell sees `${x}`, not the runner's `x`.
    @Test func doubleDollarReachesTheProgramAsOne() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outcome = try await fixture.run("""
            app sh -c "x=1; echo got=$${x}:$$HOME:${WHO}; exec cat"
            env GREETING="cost $$5 ${WHO}"
            launch
            expect "got=1:\(testEnvironment["HOME"] ?? ""):world"
            """, options: testOptions(extra: ["x": "RUNNER", "WHO": "world"]))
        #expect(outcome == .passed)

        let piped = try await fixture.run("""
            app sh -c "printf '%s' \\"$$GREETING\\""
            env GREETING="cost $$5 ${WHO} $${WHO}"
            launch pipes
            stdout contains "cost $5 world ${WHO}"
            """, options: testOptions(extra: ["WHO": "world"]))
        #expect(piped == .passed)
    }
}
