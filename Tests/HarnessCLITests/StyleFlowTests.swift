import Foundation
import Testing
import Harness
@testable import HarnessFlows
@testable import HarnessSteps

/// `expect ... style`, `expect ... in AREA` and `snapshot NAME AREA` run against a small shell
/// program that prints a styled line under a clock; each check also against a screen that
/// breaks it.
@Suite struct StyleFlowTests {
    /// Rows: 0 "Todos CLOCK", 1 "apples", 2 "Oops" with SGR `$1`, 3 "milk", 4 "q quit".
    static let program = """
        #!/bin/sh
        stty -echo
        printf 'Todos %s\\r\\n' "$2"
        printf 'apples\\r\\n'
        printf '\\033[%smOops\\033[0m\\r\\n' "$1"
        printf 'milk\\r\\n'
        printf 'q quit'
        read x

        """

    /// A fixture with the program, and a flow that runs it with SGR `sgr` and the clock `clock`
    /// and then the `checks`.
    static func run(sgr: String, clock: String = "12:00", _ checks: String, fixture: FlowFixture,
                    options: FlowExecutor.Options = testOptions()) async throws -> AttemptOutcome {
        // Run by sh, not executed: a file just written may still be open in a child another test
        // forked meanwhile, and executing it would fail with ETXTBSY.
        try fixture.write(program, at: "screen.sh")
        return try await fixture.run("""
            app sh ./screen.sh "\(sgr)" \(clock)
            size 30x8
            launch
            expect "q quit"
            \(checks)
            """, options: options)
    }

    @Test func styledAndAreaExpectsPass() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outcome = try await Self.run(sgr: "1;31", """
            expect "Oops" style bold fg=red
            expect /O.ps/ style bold not-italic fg=1 bg=default
            expect "apples" style plain
            expect "milk" in rows 1-3
            expect "Oops" in between "apples" and "milk" exclusive style bold
            expect "Todos" in rows 0 cols 0-4
            """, fixture: fixture)
        #expect(outcome == .passed)
    }

    @Test(arguments: [
        ("1;32", "fg: expected red, found green"),
        ("31", "bold: expected on, found off"),
        ("1;31;7", "inverse: expected off, found on"),
    ])
    func aWrongStyleFailsSayingWhatWasFound(sgr: String, difference: String) async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outcome = try await Self.run(sgr: sgr, #"expect "Oops" style bold not-inverse fg=red within 300ms"#, fixture: fixture)
        let failed = try #require(failure(of: outcome))
        #expect(failed.position?.line == 5)
        #expect(failed.message.hasPrefix("""
            expect "Oops" style bold not-inverse fg=red within 300ms: Timed out after 300 ms waiting for text "Oops" styled bold \
            not-inverse fg=red; instead the screen shows it, but not styled bold not-inverse fg=red.
              "Oops" at row 2, col 0 has style
            """), "\(failed.message)")
        #expect(failed.message.contains(difference))
        #expect(failed.message.contains("│Oops"))
    }

    @Test func textOutsideTheAreaFails() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outside = try #require(failure(of: try await Self.run(
            sgr: "0", #"expect "Oops" in rows 3-4 within 300ms"#, fixture: fixture)))
        #expect(outside.message.hasPrefix(
            #"expect "Oops" in rows 3-4 within 300ms: Timed out after 300 ms waiting for text "Oops" in rows 3-4; "#
                + #"instead the text "Oops" is only outside rows 3-4: "Oops" at row 2, col 0"#), "\(outside.message)")
        let noArea = try #require(failure(of: try await Self.run(
            sgr: "0", #"expect "Oops" in between "apples" and "bananas" within 300ms"#, fixture: fixture)))
        #expect(noArea.message.contains(#"instead the screen has no rows between "apples" and "bananas""#), "\(noArea.message)")
        let cut = try #require(failure(of: try await Self.run(
            sgr: "0", #"expect "Oops" in rows 2 cols 1-9 within 300ms"#, fixture: fixture)))
        #expect(cut.message.contains("is only outside rows 2-2 cols 1-9"), "\(cut.message)")
    }

    @Test func anAreaSnapshotLeavesTheClockOutAndFailsWhenTheAreaChanges() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let check = #"snapshot list between "apples" and "q quit""#
        let recorded = try #require(failure(of: try await Self.run(
            sgr: "1;31", check, fixture: fixture, options: testOptions(record: .missing))))
        #expect(recorded.message.contains("recorded"))
        let reference = fixture.folder + "/__Snapshots__/t/t.list.txt"
        #expect(try String(contentsOfFile: reference, encoding: .utf8) == """
            ┌──────────────────────────────┐
            │apples                        │
            │Oops                          │
            │milk                          │
            │q quit                        │
            └──────────────────────────────┘
            cursor: row 3, col 6, visible

            """)
        // Another clock above the area: the same snapshot.
        #expect(try await Self.run(sgr: "1;31", clock: "23:59", check, fixture: fixture) == .passed)
        // A changed reference fails with a diff (the snapshot fails by waiting: a short limit for it
        // alone, after the long one of the waits that must succeed).
        try fixture.write(try String(contentsOfFile: reference, encoding: .utf8).replacingOccurrences(of: "milk", with: "mild"),
                          at: "__Snapshots__/t/t.list.txt")
        let changed = try #require(failure(of: try await Self.run(sgr: "1;31", "timeout 300ms\n" + check, fixture: fixture)))
        #expect(changed.message.contains("-│mild"), "\(changed.message)")
        #expect(changed.message.contains("+│milk"), "\(changed.message)")
        // A screen without the area fails naming it.
        let missing = try #require(failure(of: try await Self.run(
            sgr: "1;31", "timeout 300ms\n" + #"snapshot other between "apples" and "pears""#, fixture: fixture,
            options: testOptions(record: .missing))))
        #expect(missing.message.contains(#"the screen has no rows between "apples" and "pears""#), "\(missing.message)")
    }
}
