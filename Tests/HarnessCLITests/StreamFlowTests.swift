import Foundation
import Testing
import Harness
@testable import HarnessFlows
@testable import HarnessSteps

/// Flows on line-oriented programs: what scrolled off, the output stream and its cursor,
/// transcript snapshots. The first three are the examples of the issue that asked for them.
@Suite struct StreamFlowTests {
    @Test func aLineThatScrolledOffBeforeTheWaitLookedIsFound() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outcome = try await fixture.run("""
            app /usr/bin/seq 1 2000
            launch
            expect "1500" within 2s
            """)
        #expect(outcome == .passed)
    }

    @Test func aShellLoopsFifthLineIsFoundAfterThreeHundred() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outcome = try await fixture.run("""
            app sh -c "for i in $(seq 300); do echo line-$i; done"
            launch
            expect /^line-5$/
            expect "line-300"
            exit 0
            """)
        #expect(outcome == .passed)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "python3 is not installed"))
    func aNewPromptIsAwaitedSoTheErrorBeforeItIsSeen() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outcome = try await fixture.run("""
            app python3 -q
            env PYTHONSTARTUP=
            launch
            expect-output ">>>"
            type "import time; time.sleep(0.3); 1/0\\r"
            expect-output ">>>"
            expect-not "ZeroDivisionError"
            """)
        let failed = try #require(failure(of: outcome))
        #expect(failed.position?.line == 7)
        #expect(failed.message.hasPrefix("expect-not \"ZeroDivisionError\": the screen shows it"))
        #expect(failed.message.contains("ZeroDivisionError: division by zero"))
    }

    @Test func expectOutputConsumesWhatItMatched() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        // The second prompt only comes after the input: an old prompt must not satisfy the wait.
        let source = """
            app sh -c "printf '> '; read a; echo \\"got $a\\"; printf '> '; read b; echo bye"
            launch
            expect-output "> "
            type "one\\r"
            expect-output "> "
            expect "got one"
            expect-output-not "got"
            type "two\\r"
            expect-output /^bye$/
            exit 0
            """
        #expect(try await fixture.run(source) == .passed)
    }

    @Test func expectOutputNotFailsOnWhatWasPrintedSinceTheCursor() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outcome = try await fixture.run("""
            app sh -c "echo start; printf 'Traceback: boom\\nmore\\n'; read x"
            launch
            expect-output "start"
            expect "more"
            expect-output-not /Trace\\w+/
            """)
        let failed = try #require(failure(of: outcome))
        #expect(failed.position?.line == 5)
        #expect(failed.message == """
            expect-output-not /Trace\\w+/: the program printed "Traceback" since the last output match
            Output since the last output match:

            Traceback: boom
            more

            """)
    }

    @Test func anOutputTimeoutShowsWhatCouldHaveMatched() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outcome = try await fixture.run("""
            app sh -c "echo first; echo second; read x"
            launch
            expect-output "first"
            expect "second"
            expect-output "third" within 300ms
            """)
        let failed = try #require(failure(of: outcome))
        #expect(failed.message.hasPrefix("""
            expect-output "third" within 300ms: Timed out after 300 ms waiting for output "third".
            Output since the last output match:

            second

            Screen:
            """))
    }

    @Test func anOutputWaitFailsAtOnceWhenTheProgramEnds() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outcome = try await fixture.run("""
            app sh -c "echo almost; exit 3"
            launch
            expect-output "never" within 10m
            """)
        let failed = try #require(failure(of: outcome))
        #expect(failed.message.hasPrefix("""
            expect-output "never" within 10m: The program exited with code 3 while waiting for output "never".
            Output since the last output match:
            almost
            """))
    }

    @Test func aTranscriptSnapshotHoldsWhatScrolledOff() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let source = """
            app seq 1 12
            size 10x4
            launch
            exit 0
            snapshot-transcript numbers
            """
        let recorded = try #require(failure(of: try await fixture.run(source, options: testOptions(record: .missing))))
        #expect(recorded.message.contains("recorded"))
        let reference = fixture.folder + "/__Snapshots__/t/t.numbers.txt"
        #expect(try String(contentsOfFile: reference, encoding: .utf8) == """
            ┌──────────┐
            │1         │
            │2         │
            │3         │
            │4         │
            │5         │
            │6         │
            │7         │
            │8         │
            │9         │
            │10        │
            │11        │
            │12        │
            │          │
            └──────────┘
            scrollback: 9 lines, screen: 4 of 4 rows

            """)
        #expect(try await fixture.run(source) == .passed)
        // A program that prints one line less fails against it, with a diff.
        let shorter = source.replacingOccurrences(of: "seq 1 12", with: "seq 2 12")
        let failed = try #require(failure(of: try await fixture.run(shorter)))
        #expect(failed.message.contains("snapshot-transcript numbers"))
        #expect(failed.message.contains("-│1         │"))
    }

    @Test(arguments: [
        ("expect-output \"a\" within 2s", FlowCommand.expectOutput(.text("a"), within: .seconds(2))),
        ("expect-output /^a$/", .expectOutput(.regex("^a$"), within: nil)),
        ("expect-output-not \"Error\"", .expectOutputNot(.text("Error"))),
        ("expect-output-not /E\\/r/", .expectOutputNot(.regex("E/r"))),
        ("snapshot-transcript all.lines", .snapshotTranscript(name: "all.lines")),
    ])
    func theNewCommandsParseAndPrintBack(line: String, command: FlowCommand) throws {
        let script = try FlowParser.parse("app x\nlaunch\n\(line)\n", file: "t.flow", directory: "/tmp")
        #expect(script.steps[2].command == command)
        #expect(command.flowText == line)
    }

    @Test func theNewCommandsNeedTheLaunchAndShareSnapshotNames() {
        let source = "app x\nexpect-output \"a\"\nlaunch\nsnapshot one\nsnapshot-transcript one\nexpect-output-not\n"
        #expect(throws: FlowParseErrors.self) { try FlowParser.parse(source, file: "t.flow", directory: "/tmp") }
        do {
            _ = try FlowParser.parse(source, file: "t.flow", directory: "/tmp")
        } catch {
            let text = "\(error)"
            #expect(text.contains("t.flow:2:1: expect-output"))
            #expect(text.contains("t.flow:5:1:"))
            #expect(text.contains("t.flow:6:"))
        }
    }
}
