import Foundation
import Testing
import Harness
@testable import HarnessCore
import TestSupport
import TerminalEmulator

/// What a launched program's environment holds (README.md and docs/FLOWS.md, "What the
/// program's environment holds"), in Swift: `AppLaunch` through `TerminalApp` and `PipedApp`,
/// whatever the runner's `TERM`, colour and locale variables are.
@Suite struct ProgramEnvironmentTests {
    /// The runner's environments of the "Done when": no `TERM`, `TERM=xterm`, `TERM=dumb`, each
    /// with the variables that must not leak (`NO_COLOR`, `swift test`'s, among them).
    static let runners: [[String: String]] = [[:], ["TERM": "xterm"], ["TERM": "dumb"]].map { terminal in
        var runner = testEnvironment.merging(terminal) { _, new in new }
        for name in ProgramEnvironment.removedVariables { runner[name] = "1" }
        runner["COLORTERM"] = "24bit"
        runner["LANG"] = "de_DE.UTF-8"
        runner["LC_ALL"] = "de_DE.UTF-8"
        runner["LC_TIME"] = "de_DE.UTF-8"
        runner["LANGUAGE"] = "de"
        runner["MY_OWN"] = "kept"
        return runner
    }

    /// A shell line printing the variables the table names, one `NAME=[value]` per variable
    /// (`[-]` when it is not set), then `MY_OWN`.
    static let printer: String = {
        let names = ["TERM", "COLORTERM", "LANG", "LC_ALL", "LC_TIME", "LANGUAGE"] + ProgramEnvironment.removedVariables + ["MY_OWN"]
        return "printf '" + names.map { "\($0)=[%s]" }.joined(separator: " ") + "\\nend\\n' "
            + names.map { "\"${\($0)--}\"" }.joined(separator: " ")
    }()

    /// What the printer prints for a program with the documented environment.
    static func documented(terminal: Bool, overrides: [String: String] = [:]) -> String {
        var values: [(String, String)] = [
            ("TERM", terminal ? "xterm-256color" : "dumb"), ("COLORTERM", terminal ? "truecolor" : "-"),
            ("LANG", "C.UTF-8"), ("LC_ALL", "-"), ("LC_TIME", "-"), ("LANGUAGE", "-"),
        ]
        // COLORFGBG is never inherited; in a terminal it says the theme (dark by default).
        values += ProgramEnvironment.removedVariables.map { ($0, $0 == "COLORFGBG" && terminal ? TerminalTheme.dark.colorFGBG : "-") }
        values.append(("MY_OWN", "kept"))
        return values.map { name, value in "\(name)=[\(overrides[name] ?? value)]" }.joined(separator: " ")
    }

    // MARK: - The table, computed

    @Test(arguments: runners)
    func hermeticEnvironmentIsTheTable(runner: [String: String]) {
        let terminal = ProgramEnvironment.hermetic(runner, for: .terminal)
        #expect(terminal["TERM"] == "xterm-256color" && terminal["COLORTERM"] == "truecolor" && terminal["LANG"] == "C.UTF-8")
        let pipes = ProgramEnvironment.hermetic(runner, for: .pipes)
        #expect(pipes["TERM"] == "dumb" && pipes["COLORTERM"] == nil && pipes["LANG"] == "C.UTF-8")
        #expect(terminal["COLORFGBG"] == "15;0" && pipes["COLORFGBG"] == nil)
        #expect(ProgramEnvironment.hermetic(runner, for: .terminal, theme: .light)["COLORFGBG"] == "0;15")
        for environment in [terminal, pipes] {
            #expect(environment.keys.filter { $0.hasPrefix("LC_") || $0 == "LANGUAGE" }.isEmpty)
            for name in ProgramEnvironment.removedVariables where name != "COLORFGBG" { #expect(environment[name] == nil, "\(name) leaked") }
            #expect(environment["MY_OWN"] == "kept" && environment["PATH"] == runner["PATH"])
        }
    }

    // MARK: - A launched program sees it

    @Test(arguments: runners)
    func terminalAppSeesTheDocumentedEnvironment(runner: [String: String]) async throws {
        var launch = AppLaunch(executable: "/bin/sh", arguments: ["-c", Self.printer + "; exec cat"])
        launch.inheritedEnvironment = runner
        launch.size = TerminalSize(cols: 800, rows: 5)
        launch.defaultTimeout = mustSucceedTimeout
        try await TerminalApp.with(launch) { app in
            let screen = try await app.waitFor(text: "end")
            #expect(screen.line(0) == Self.documented(terminal: true))
        }
    }

    @Test(arguments: runners)
    func pipedAppSeesTheDocumentedEnvironment(runner: [String: String]) async throws {
        var launch = AppLaunch(executable: "/bin/sh", arguments: ["-c", Self.printer])
        launch.inheritedEnvironment = runner
        let app = try PipedApp.launch(launch)
        defer { app.close(failed: false) }
        let output = try await app.session.waitForExit(timeout: mustSucceedTimeout)
        #expect(output.standardOutput == Self.documented(terminal: false) + "\nend\n")
    }

    /// A variable the test sets wins over every row.
    @Test func explicitVariablesWin() async throws {
        let chosen = ["TERM": "xterm", "COLORTERM": "", "NO_COLOR": "1", "LC_ALL": "de_DE.UTF-8", "COLUMNS": "100"]
        var launch = AppLaunch(executable: "/bin/sh", arguments: ["-c", Self.printer + "; exec cat"])
        launch.inheritedEnvironment = Self.runners[0]
        launch.environment = chosen
        launch.size = TerminalSize(cols: 800, rows: 5)
        launch.defaultTimeout = mustSucceedTimeout
        try await TerminalApp.with(launch) { app in
            let screen = try await app.waitFor(text: "end")
            #expect(screen.line(0) == Self.documented(terminal: true, overrides: chosen))
        }
        var piped = AppLaunch(executable: "/bin/sh", arguments: ["-c", Self.printer])
        piped.inheritedEnvironment = Self.runners[0]
        piped.environment = chosen
        let app = try PipedApp.launch(piped)
        defer { app.close(failed: false) }
        let output = try await app.session.waitForExit(timeout: mustSucceedTimeout)
        #expect(output.standardOutput == Self.documented(terminal: false, overrides: chosen) + "\nend\n")
    }

    /// The sessions' default environment is the table too (this process's, made hermetic).
    @Test func sessionsDefaultToTheHermeticEnvironment() {
        #expect(TerminalSession.Configuration(executable: "sh").environment == ProgramEnvironment.hermetic(for: .terminal))
        #expect(PipedSession.Configuration(executable: "sh").environment == ProgramEnvironment.hermetic(for: .pipes))
    }

    /// A program that asks terminfo how many colours it has gets the emulator's 256, whatever
    /// the runner's `TERM`.
    @Test(.enabled(if: isInstalled("tput")), arguments: runners)
    func terminfoSaysWhatTheEmulatorImplements(runner: [String: String]) async throws {
        var launch = AppLaunch(executable: "/bin/sh", arguments: ["-c", "echo colors=$(tput colors); exec cat"])
        launch.inheritedEnvironment = runner
        launch.defaultTimeout = mustSucceedTimeout
        try await TerminalApp.with(launch) { app in
            let screen = try await app.waitFor(regex: "colors=-?\\d+")
            #expect(screen.line(0) == "colors=256")
        }
    }

    // MARK: - The documents

    /// The table in README.md and in docs/FLOWS.md are the same, and say what
    /// `ProgramEnvironment` does.
    @Test func theDocumentedTablesAreTheSameAndMatchTheCode() throws {
        let readme = try Self.table(in: DocumentedExamples.read("README.md", fromTestFile: #filePath))
        let flows = try Self.table(in: DocumentedExamples.read("docs/FLOWS.md", fromTestFile: #filePath))
        #expect(readme == flows)
        #expect(readme.count == 10)
        func row(_ name: String) -> String { readme.first { $0.names.first == name }?.gets ?? "" }
        #expect(row("HARNESS_SESSION").hasPrefix("under `harness run` and `harness swift-test` only"))
        #expect(row("TERM").hasPrefix("`\(ProgramEnvironment.terminalType)` in a terminal") && row("TERM").contains("`dumb` with `launch pipes`"))
        #expect(row("COLORTERM").hasPrefix("`truecolor` in a terminal") && row("COLORTERM").contains("not set with `launch pipes`"))
        #expect(row("LANG").hasPrefix("`\(ProgramEnvironment.locale)`"))
        #expect(row("COLORFGBG").contains("`\(TerminalTheme.dark.colorFGBG)` (light on dark, the default) in a terminal, `\(TerminalTheme.light.colorFGBG)` in the light theme"))
        let unset = readme.filter { $0.gets.hasPrefix("not set") }.flatMap(\.names)
        // COLORFGBG is never inherited, and set from the theme.
        let removed = ProgramEnvironment.removedVariables.filter { $0 != "COLORFGBG" }
        #expect(Set(unset) == Set(removed + ["LC_ALL", "LC_*", "LANGUAGE"]))
        #expect(unset.count == removed.count + 3)
        for name in unset where name != "LC_*" { #expect(ProgramEnvironment.isRemoved(name), "\(name)") }
        #expect(!ProgramEnvironment.isRemoved("PATH") && !ProgramEnvironment.isRemoved("HOME"))
    }

    /// The rows of the table under "| Variable | The program gets |": the backquoted names of the
    /// first column and the second column's text.
    static func table(in markdown: String) -> [Row] {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let header = lines.firstIndex(of: "| Variable | The program gets |") else { return [] }
        var rows: [Row] = []
        for line in lines[(header + 2)...] {
            guard line.hasPrefix("| ") else { break }
            let cells = line.dropFirst(2).components(separatedBy: " | ")
            guard cells.count == 2 else { break }
            let names = cells[0].components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
            rows.append(Row(names: names, gets: String(cells[1].dropLast(2))))
        }
        return rows
    }

    /// A row of the table.
    struct Row: Equatable {
        var names: [String]
        var gets: String
    }
}
