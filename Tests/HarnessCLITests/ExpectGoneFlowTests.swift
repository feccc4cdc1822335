import Foundation
import Testing
import Harness
@testable import HarnessFlows
@testable import HarnessSteps

/// `expect-gone` run against a small shell program that shows a line, and clears it when it
/// reads a line of input (so the test, not the clock, decides when it goes).
@Suite struct ExpectGoneFlowTests {
    /// Rows: 0 "Title", 1 "Saving…", 2 "q quit". After the first line of input row 1 becomes
    /// "Saved"; after the second the program exits (status 0), leaving the screen as it is.
    static let program = """
        #!/bin/sh
        stty -echo
        printf 'Title\\r\\n'
        printf 'Saving…\\r\\n'
        printf 'q quit'
        read x
        printf '\\033[2;1H\\033[2KSaved'
        read y

        """

    /// Runs the program in a flow, then the `checks`.
    static func run(_ checks: String, fixture: FlowFixture) async throws -> AttemptOutcome {
        // Run by sh, not executed: a file just written may still be open in a child another test
        // forked meanwhile, and executing it would fail with ETXTBSY.
        try fixture.write(program, at: "gone.sh")
        return try await fixture.run("""
            app sh ./gone.sh
            size 30x6
            launch
            expect "q quit"
            \(checks)
            """)
    }

    @Test func waitsUntilTheTextIsNoLongerOnTheScreen() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outcome = try await Self.run("""
            expect-gone "Saving" in rows 2-5
            press enter
            expect-gone "Saving"
            expect "Saved" in rows 1
            expect-gone /Sav(ing)?…/ in rows 1
            expect-not "Saving"
            """, fixture: fixture)
        #expect(outcome == .passed)
    }

    @Test func textStillShownTimesOutShowingTheScreen() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outcome = try await Self.run(#"expect-gone "Saving" within 300ms"#, fixture: fixture)
        let failed = try #require(failure(of: outcome))
        #expect(failed.position?.line == 5)
        #expect(failed.message.hasPrefix(#"expect-gone "Saving" within 300ms: Timed out after 300 ms waiting for the screen to stop showing "Saving"."#),
                "\(failed.message)")
        #expect(failed.message.contains("Screen:"))
        #expect(failed.message.contains("│Saving…"), "\(failed.message)")
    }

    @Test func onlyTheAreaCounts() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outcome = try await Self.run(#"expect-gone /Sav/ in rows 0-1 within 300ms"#, fixture: fixture)
        let failed = try #require(failure(of: outcome))
        #expect(failed.message.hasPrefix("expect-gone /Sav/ in rows 0-1 within 300ms: Timed out after 300 ms waiting for the screen to stop showing /Sav/ in rows 0-1."),
                "\(failed.message)")
    }

    @Test func aProgramThatEndsWithTheTextStillShownFails() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outcome = try await Self.run("""
            press enter
            expect "Saved"
            press enter
            expect-gone "Saved"
            """, fixture: fixture)
        let failed = try #require(failure(of: outcome))
        #expect(failed.message.hasPrefix(#"expect-gone "Saved": The program exited with code 0 while waiting for the screen to stop showing "Saved"."#),
                "\(failed.message)")
    }
}

/// The example of docs/FLOWS.md's "Waiting for something to go", run against the todo app
/// from `Tests/Flows` (where its fixture is).
@Suite struct ExpectGoneDocsExampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func theDocsExampleRuns() async throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/FLOWS.md"), encoding: .utf8)
        let section = try #require(text.components(separatedBy: "## Waiting for something to go").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```flow\n").dropFirst().first?.components(separatedBy: "```").first)
        #expect(block.contains("expect-gone"))
        let directory = Self.root.appendingPathComponent("Tests/Flows").path
        let script = try FlowParser.parse(block, file: "docs-expect-gone.flow", directory: directory)
        let outcome = await FlowExecutor(options: testOptions()).run(
            script, flow: FlowFile(path: directory + "/docs-expect-gone.flow", relativePath: "docs-expect-gone.flow"))
        #expect(outcome == .passed)
    }
}
