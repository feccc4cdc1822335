import Foundation
import Testing
import Harness
import HarnessSystem
import TestSupport
@testable import HarnessFlows
@testable import HarnessSteps

/// What a program reports through OSC sequences, driven by flows against real programs: a bash
/// with the OSC 133 prompt of docs/FLOWS.md ("Shell integration", run as written there), and
/// small sh programs that set a title, write the clipboard and print links.
@Suite struct ShellIntegrationFlowTests {
    static let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/FLOWS.md")

    /// The fenced blocks of `language` in docs/FLOWS.md's "Shell integration" section.
    static func blocks(_ language: String) throws -> [String] {
        let text = try String(contentsOf: docs, encoding: .utf8)
        let start = try #require(text.range(of: "\n## Shell integration\n"))
        let section = text[start.upperBound...]
        let body = section.range(of: "\n## ").map { section[..<$0.lowerBound] } ?? section
        var blocks: [String] = []
        var current: [Substring]?
        for line in body.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```\(language)" { current = [] } else if current != nil, line == "```" {
                blocks.append(current!.joined(separator: "\n") + "\n")
                current = nil
            } else { current?.append(line) }
        }
        return blocks
    }

    /// A fixture holding the docs' bash rc file as `shell-marks.bash`.
    static func bashFixture() throws -> FlowFixture {
        let fixture = try FlowFixture()
        try fixture.write(try #require(blocks("bash").first), at: "shell-marks.bash")
        return fixture
    }

    static let bashHeader = "app bash --noprofile --rcfile shell-marks.bash -i\nenv HISTFILE=/dev/null\nlaunch\n"

    @Test func theDocsBashPromptAndFlowRunAsWritten() async throws {
        let fixture = try Self.bashFixture()
        defer { fixture.remove() }
        let flow = try #require(Self.blocks("flow").first)
        #expect(flow.contains("command-status 3"))
        let outcome = try await fixture.run(flow)
        #expect(outcome == .passed, "\(outcome)")
    }

    /// The bundled bash flow (Tests/Flows/third-party/bash-shell-marks.flow) runs the docs' rc
    /// file, not a copy that could drift from it.
    @Test func theBundledBashFlowUsesTheDocsPrompt() throws {
        let bundled = Self.docs.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tests/Flows/third-party/fixtures/shell-marks.bash")
        #expect(try String(contentsOf: bundled, encoding: .utf8) == (try #require(Self.blocks("bash").first)))
    }

    @Test func theDocsZshPromptEmitsTheSameMarks() throws {
        let zsh = try #require(Self.blocks("zsh").first)
        let bash = try #require(Self.blocks("bash").first)
        for mark in [#"\e]133;A\a"#, #"\e]133;B\a"#, #"\e]133;C\a"#, #"\e]133;D;"#] {
            #expect(zsh.contains(mark), "zsh: \(mark)")
            #expect(bash.contains(mark), "bash: \(mark)")
        }
        #expect(zsh.contains("precmd()") && zsh.contains("preexec()") && zsh.contains("$?"))
    }

    /// The docs' zsh prompt, as `.zshrc` (found through `ZDOTDIR`), runs the docs' flow as
    /// bash does. CI installs zsh, so there it must run.
    @Test(.enabled(if: isInstalled("zsh") || ProcessInfo.processInfo.environment["CI"] != nil, "zsh is not installed"))
    func theDocsZshPromptRunsTheDocsFlow() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try fixture.write(try #require(Self.blocks("zsh").first), at: ".zshrc")
        let flow = try #require(Self.blocks("flow").first)
        let bashLine = "app bash --noprofile --rcfile shell-marks.bash -i\n"
        #expect(flow.hasPrefix(bashLine))
        let outcome = try await fixture.run("app zsh -i\nenv ZDOTDIR=\(fixture.folder)\n" + flow.dropFirst(bashLine.count))
        #expect(outcome == .passed, "\(outcome)")
    }

    @Test func eachCommandIsAwaitedAndItsStatusChecked() async throws {
        let fixture = try Self.bashFixture()
        defer { fixture.remove() }
        let outcome = try await fixture.run(Self.bashHeader + """
            type "true\\r"
            expect-command
            command-status 0
            type "(exit 3)\\r"
            expect-command
            command-status 3
            type "(exit 4)\\r(exit 5)\\r"
            expect-command
            expect-command
            command-status 5
            type "sleep 0.2; (exit 7)\\r"
            expect-command
            command-status 7
            """)
        #expect(outcome == .passed, "\(outcome)")
    }

    @Test func aWrongStatusNamesTheCommandAndTheStatusesSeen() async throws {
        let fixture = try Self.bashFixture()
        defer { fixture.remove() }
        let outcome = try await fixture.run(Self.bashHeader + """
            type "(exit 3)\\r"
            expect-command
            command-status 0
            """)
        let message = try #require(failure(of: outcome)?.message)
        #expect(message.hasPrefix(#"command-status 0: the last command "(exit 3)" finished with status 3, expected status 0"#), "\(message)")
        #expect(message.contains(#"Statuses seen (latest last): "(exit 3)" 3"#), "\(message)")
    }

    @Test func aProgramWithoutMarksTimesOutSayingSo() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outcome = try await fixture.run("""
            app sh -c "echo ready; read x"
            launch
            expect "ready"
            command-status 0
            """)
        #expect(failure(of: outcome)?.message.hasPrefix("command-status 0: no command has finished (no OSC 133 D mark") == true)
        let waited = try await fixture.run("""
            app sh -c "echo ready; read x"
            launch
            expect "ready"
            expect-command within 300ms
            """)
        let message = try #require(failure(of: waited)?.message)
        #expect(message.hasPrefix("expect-command within 300ms: Timed out after 300 ms waiting for a shell command to finish (OSC 133 D mark); the program sent no OSC 133 shell marks."), "\(message)")
    }

    // MARK: - Title, clipboard, links

    /// Prints what each line of input asks for: a title, a clipboard write, a link.
    static let reporter = #"""
        stty -echo
        printf 'ready\n'
        while read line; do
          case "$line" in
            title) printf '\033]2;hello\007' ;;
            copy) printf '\033]52;c;Y29waWVk\033\\' ;;
            link) printf '\033]8;;https://example.com/docs\007docs\033]8;;\007 plain\n' ;;
            error) printf 'Error\n' ;;
          esac
        done
        """#

    static func runReporter(_ steps: String) async throws -> AttemptOutcome {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try fixture.write(reporter, at: "reporter.sh")
        return try await fixture.run("app sh ./reporter.sh\nlaunch\nexpect \"ready\"\n" + steps)
    }

    @Test func theTitleSetByPrintf() async throws {
        let fixture = try Self.bashFixture()
        defer { fixture.remove() }
        let outcome = try await fixture.run(Self.bashHeader + #"type "printf '\\e]2;hello\\a'\r""# + "\nexpect-title \"hello\"\nexpect-title /^hel+o$/\n")
        #expect(outcome == .passed, "\(outcome)")
    }

    @Test func aTitleThatNeverCameShowsTheTitleSeen() async throws {
        let outcome = try await Self.runReporter("type \"title\\r\"\nexpect-title \"hello\"\nexpect-title \"other\" within 300ms\n")
        #expect(failure(of: outcome)?.message == #"expect-title "other" within 300ms: Timed out after 300 ms waiting for the title "other"; the title is "hello"."#)
    }

    @Test func clipboardWritesAreAssertable() async throws {
        #expect(try await Self.runReporter("type \"copy\\r\"\nexpect-clipboard \"copied\"\nexpect-clipboard /^cop/\n") == .passed)
        let outcome = try await Self.runReporter("type \"copy\\r\"\nexpect-clipboard \"copied\"\nexpect-clipboard \"other\" within 300ms\n")
        #expect(failure(of: outcome)?.message
            == #"expect-clipboard "other" within 300ms: Timed out after 300 ms waiting for the clipboard "other"; its last writes: "copied"."#)
    }

    @Test func linksAreAStyle() async throws {
        #expect(try await Self.runReporter("""
            type "link\\r"
            expect "docs" style link=https://example.com/docs
            expect "plain" style not-link
            expect-not "docs" style not-link
            """) == .passed)
        // The text is there first (a wait that must succeed), so the short wait can only fail
        // on the link, however slow the machine.
        let outcome = try await Self.runReporter("""
            type "link\\r"
            expect "plain"
            expect "docs" style link=https://example.com/other within 300ms
            """)
        let message = try #require(failure(of: outcome)?.message)
        #expect(message.contains("link: expected https://example.com/other, found https://example.com/docs"), "\(message)")
    }

    // MARK: - expect-not ... for, wait-stable ... in

    @Test func expectNotForPassesWhenTheTimeIsOverAndFailsOnceItShows() async throws {
        #expect(try await Self.runReporter("expect-not \"Error\" for 200ms\n") == .passed)
        let outcome = try await Self.runReporter("type \"error\\r\"\nexpect-not \"Error\" for 60s\n")
        #expect(failure(of: outcome)?.message.hasPrefix(#"expect-not "Error" for 1m: the screen showed it during the 1m it must not"#) == true,
                "\(String(describing: failure(of: outcome)?.message))")
    }

    @Test func waitStableInAnAreaIgnoresAClockElsewhere() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        // Row 0 changes every 20ms for as long as the program runs; row 2 never changes.
        let outcome = try await fixture.run(#"""
            app sh -c "printf '\\033[3;1Hsteady'; i=0; while :; do i=$((i+1)); printf '\\033[1;1H%s' $i; sleep 0.02; done"
            launch
            expect "steady"
            wait-stable 300ms in rows 2-2
            wait-stable 200ms in between "steady" and "steady"
            """#)
        #expect(outcome == .passed, "\(outcome)")
    }
}
