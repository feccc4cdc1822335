import Foundation
import Testing
import Harness
@testable import HarnessFlows
@testable import HarnessSteps

/// Each command of a flow against small programs (`sh`, `cat`, `bc`), passing and failing.
@Suite struct FlowExecutorTests {
    @Test func typeAndPressAndExpect() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outcome = try await fixture.run("""
            app cat
            launch
            type "hello"
            press enter
            expect /^hello$/
            expect "hello" within 2s
            press ctrl-d
            exit 0
            """)
        #expect(outcome == .passed)
    }

    @Test func pasteSendsLinesAndResizeReachesTheProgram() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outcome = try await fixture.run("""
            app sh
            size 70x20
            launch
            expect "$ "
            paste "echo pasted-one\\n"
            expect "pasted-one"
            resize 100x30
            type "stty size"
            press enter
            expect "30 100"
            type "exit 0"
            press enter
            exit 0
            """)
        #expect(outcome == .passed)
    }

    @Test func expectNotPassesAndFailsWithItsPosition() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let source = """
            app sh -c "echo ready; exec cat"
            launch
            expect "ready"
            expect-not "error"
            expect-not /rea.y/
            """
        let failed = try #require(failure(of: try await fixture.run(source)))
        #expect(failed.position == SourcePosition(file: "t.flow", line: 5, column: 1))
        #expect(failed.message.hasPrefix("expect-not /rea.y/: the screen shows it"))
        #expect(failed.message.contains("│ready"))
        #expect(failed.description.hasPrefix("t.flow:5:1: expect-not /rea.y/"))
    }

    @Test func expectTimesOutWithTheScreenAndTheLastBytes() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let failed = try #require(failure(of: try await fixture.run("""
            app sh -c "printf 'almost there'; exec cat"
            timeout 300ms
            launch
            expect "there" within 120s
            expect "done"
            """)))
        #expect(failed.position?.line == 5)
        #expect(failed.summary == "expect \"done\": Timed out after 300 ms waiting for text \"done\".")
        #expect(failed.message.contains("Last bytes received: almost there"))
        #expect(failed.message.contains("┌"))
    }

    @Test func expectFailsAtOnceWhenTheProgramEnds() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let failed = try #require(failure(of: try await fixture.run("""
            app sh -c "echo bye; exit 2"
            timeout 30s
            launch
            expect "never"
            """)))
        #expect(failed.summary == "expect \"never\": The program exited with code 2 while waiting for text \"never\".")
    }

    @Test func waitStableWaitsForQuiet() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outcome = try await fixture.run("""
            app sh -c "for i in 1 2 3; do echo line$i; done; exec cat"
            launch
            wait-stable 100ms
            expect "line3"
            """)
        #expect(outcome == .passed)
    }

    @Test(arguments: [("exit 3", 3, true), ("exit 3", 4, false), ("kill -TERM $$$$", 143, true), ("exit 0", 1, false)])
    func exitStatusIncludesSignals(script: String, expected: Int, passes: Bool) async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outcome = try await fixture.run("""
            app sh -c \(FlowStringLiteral.quote(script))
            launch
            exit \(expected)
            """)
        if passes {
            #expect(outcome == .passed)
        } else {
            let failed = try #require(failure(of: outcome))
            #expect(failed.summary.contains("expected status \(expected)"))
            #expect(failed.position?.line == 3)
        }
    }

    @Test func killEndsTheProgramAndTheFinalScreenCanStillBeChecked() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outcome = try await fixture.run("""
            app sh -c "echo running; exec cat"
            launch
            expect "running"
            kill
            expect "running"
            expect-not "stopped"
            """)
        #expect(outcome == .passed)
    }

    @Test func variablesExpandInAppAndEnv() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outcome = try await fixture.run("""
            app ${SHELL_DIR}/sh -c "echo \\"greeting=$GREETING\\"; exec cat"
            env GREETING="hello ${WHO}"
            launch
            expect "greeting=hello world"
            """, options: testOptions(extra: ["SHELL_DIR": "/bin", "WHO": "world"]))
        #expect(outcome == .passed)

        let failed = try #require(failure(of: try await fixture.run("""
            app ${NOT_SET_ANYWHERE}/todo
            launch
            """)))
        #expect(failed.summary == "launch: app: \"${NOT_SET_ANYWHERE}/todo\": the variable NOT_SET_ANYWHERE is not set (write $$ for a $ the program should see: $${NOT_SET_ANYWHERE})")
    }

    @Test func aProgramThatIsNotInstalledSkipsTheFlow() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outcome = try await fixture.run("""
            app surely-not-installed-program-42
            launch
            """)
        #expect(outcome == .skipped(reason: "surely-not-installed-program-42 is not installed (not found in PATH)"))
    }

    @Test func aMissingProgramPathFails() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let failed = try #require(failure(of: try await fixture.run("""
            app ./missing-program
            launch
            """)))
        #expect(failed.summary.contains("is not an executable file"))
        #expect(failed.position?.line == 2)
    }

    @Test func theProgramRunsInTheFlowsFolderAndRelativePathsStartThere() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        // A link to sh rather than a freshly written script: executing a file another thread of
        // this process may still hold open for writing can fail with ETXTBSY.
        try FileManager.default.createDirectory(atPath: fixture.folder + "/sub/bin", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: fixture.folder + "/sub/bin/tool", withDestinationPath: "/bin/sh")
        let outcome = try await fixture.run("""
            app ./bin/tool -c "echo \\"script in $(pwd)\\"; exec cat"
            launch
            expect "script in"
            expect "/sub"
            """, name: "sub/t.flow")
        #expect(outcome == .passed)
    }
}
