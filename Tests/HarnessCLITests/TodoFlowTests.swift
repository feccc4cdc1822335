import Foundation
import Testing
import Harness
@testable import HarnessFlows
@testable import HarnessSteps

/// Flows against the todo app: stubs, seeds, sandbox files, the request journal and the bridge.
@Suite struct TodoFlowTests {
    static let todos = """
        [{"userId": 1, "id": 1, "title": "walk", "completed": false},
         {"userId": 1, "id": 2, "title": "Apples", "completed": true},
         {"userId": 2, "id": 3, "title": "milk", "completed": false}]
        """

    /// A fixture with `todos.json` and the flow header launching the todo app.
    func makeFixture() throws -> FlowFixture {
        let fixture = try FlowFixture()
        try fixture.write(Self.todos, at: "todos.json")
        return fixture
    }

    let header = "app ${HARNESS_PRODUCTS_DIR}/todo\ntimeout 60s\n"  // every wait before the failing one must succeed

    /// A bridge that ends under a `spy` line says so at once, not "within 60s" it did not wait.
    @Test func aSpyWaitEndedByTheAppsExitSaysSo() async throws {
        let fixture = try makeFixture()
        defer { fixture.remove() }
        let outcome = try await fixture.run(header + """
            launch
            expect "[ Start ]"
            press q
            spy database.save count 1
            """)
        let failed = try #require(failure(of: outcome))
        #expect(failed.position?.line == 6)
        #expect(failed.message.contains("while waiting for the spy's call 1"), "\(failed.message)")
        #expect(!failed.message.contains("within 60s"), "\(failed.message)")
    }

    /// A program without a harness host that ends before its bridge came up fails the launch at
    /// once (the timeout is far longer than the test), in a flow's words: the bridge line that
    /// needs it and what a flow can do, not the Swift API's `launchProtocol`.
    @Test func aProgramWithoutAHostFailsTheBridgeLinesAtOnceInAFlowsWords() async throws {
        let fixture = try makeFixture()
        defer { fixture.remove() }
        let outcome = try await fixture.run("""
            app sh -c "exit 3"
            timeout 600s
            launch
            spy database.save count 0
            """)
        let failed = try #require(failure(of: outcome))
        #expect(failed.message.contains("exited with code 3 before its bridge was ready (`spy` on line 4 needs the bridge)"),
                "\(failed.message)")
        #expect(failed.message.contains("need a program that links a harness host"), "\(failed.message)")
        #expect(!failed.message.contains("launchProtocol"), "\(failed.message)")
        #expect(!failed.message.contains("could not launch"))
    }

    @Test func stubsRequestsFilesSpiesAndEventsPass() async throws {
        let fixture = try makeFixture()
        defer { fixture.remove() }
        try fixture.write("[]", at: "saved-expected.json")
        try fixture.write("seeded text\n", at: "note.txt")
        let outcome = try await fixture.run(header + """
            stub GET /todos 200 json todos.json delay 10ms
            seed note.txt as notes/note.txt
            launch
            file notes/note.txt equals note.txt
            file todos.json missing
            requests GET /todos count 0
            expect "[ Start ]"
            press enter
            expect "Todos (3)"
            expect /Apples\\n.*milk\\n.*walk/
            spy database.save count 1
            event state sequence idle,loading,loaded
            requests GET /todos count 1
            file todos.json exists
            press q
            exit 0
            event state sequence idle, loading, loaded
            """)
        #expect(outcome == .passed)
    }

    @Test func spyLastComparesJSONIgnoringKeyOrder() async throws {
        let fixture = try makeFixture()
        defer { fixture.remove() }
        try fixture.write("""
            [{"title": "Apples", "completed": true, "id": 2, "userId": 1},
             {"id": 3, "userId": 2, "title": "milk", "completed": false},
             {"completed": false, "id": 1, "title": "walk", "userId": 1.0}]
            """, at: "sorted.json")
        try fixture.write("[]", at: "empty.json")
        let passes = try await fixture.run(header + """
            stub GET /todos 200 json todos.json
            launch
            expect "[ Start ]"
            press enter
            spy database.save last sorted.json
            """)
        #expect(passes == .passed)
        let failed = try #require(failure(of: try await fixture.run(header + """
            stub GET /todos 200 json todos.json
            launch
            expect "[ Start ]"
            press enter
            spy database.save last empty.json
            """)))
        #expect(failed.position?.line == 7)
        #expect(failed.summary == "spy database.save last empty.json: the spy's last call differs from empty.json")
        #expect(failed.message.contains("+    \"title\" : \"Apples\""))
    }

    @Test func failingChecksSayWhatWasExpected() async throws {
        let fixture = try makeFixture()
        defer { fixture.remove() }
        try fixture.write("[]", at: "empty.json")
        // The app publishes `loaded` on the bridge just before it draws "Todos (3)", but the
        // harness reads the bridge and the terminal on two threads: the event check waits for
        // three events (all there will be), so what it compares does not depend on which thread
        // ran first. The save (its spy call, its file) is awaited the same way; only the check
        // that fails by waiting, for a second call that never comes, gets the short timeout.
        let cases: [(String, String)] = [
            ("requests GET /todos count 2", "the stub server received 1 such request, expected 2"),
            ("spy database.save count 2", "the spy recorded 1 call within 300ms, expected 2"),
            ("event state sequence idle,loading,error", "the events state were idle,loading,loaded"),
            ("file todos.json missing", "the sandbox holds todos.json"),
            ("file other.json exists", "the sandbox has no other.json"),
            ("file todos.json equals empty.json", "todos.json differs from empty.json"),
        ]
        for (check, problem) in cases {
            let failed = try #require(failure(of: try await fixture.run("""
                app ${HARNESS_PRODUCTS_DIR}/todo
                stub GET /todos 200 json todos.json
                launch
                expect "[ Start ]"
                press enter
                expect "Todos (3)"
                timeout 120s
                spy database.save count 1
                timeout \(check.hasPrefix("spy") ? "300ms" : "120s")
                \(check)
                """)))
            #expect(failed.position == SourcePosition(file: "t.flow", line: 10, column: 1), "\(check)")
            #expect(failed.summary.hasPrefix("\(check): \(problem)"), "\(failed.summary)")
        }
    }

    @Test func failedAttemptsLeaveJournalEventsRecordingAndScreen() async throws {
        let fixture = try makeFixture()
        defer { fixture.remove() }
        let artifacts = fixture.folder + "/artifacts"
        let failed = try #require(failure(of: try await fixture.run(header + """
            stub GET /todos close
            launch
            expect "[ Start ]"
            press enter
            expect "Oops"
            event state sequence idle,loading,error
            expect "Todos (3)" within 200ms
            """, name: "flows/closed.flow", options: testOptions(artifacts: artifacts), attempt: 2)))
        #expect(failed.position?.line == 9)
        #expect(failed.artifacts == FlowArtifacts(
            cast: "flows/closed.attempt2.cast", screenText: "flows/closed.attempt2.screen.txt",
            screenSVG: "flows/closed.attempt2.screen.svg", journal: "flows/closed.attempt2.journal.json",
            events: "flows/closed.attempt2.events.json", screenPNG: "flows/closed.attempt2.screen.png"))
        let journal = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: artifacts + "/flows/closed.attempt2.journal.json")))
        let requests = try #require(journal as? [[String: Any]])
        #expect(requests.count == 1)
        #expect(requests.first?["target"] as? String == "/todos")
        let events = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: artifacts + "/flows/closed.attempt2.events.json")))
        #expect((events as? [[String: Any]])?.compactMap { $0["value"] as? String } == ["idle", "loading", "error"])
        let cast = try AsciicastReader.read(path: artifacts + "/flows/closed.attempt2.cast")
        #expect(cast.events.contains { $0.kind == .input && $0.data == "\r" })
        #expect(try String(contentsOfFile: artifacts + "/flows/closed.attempt2.screen.txt", encoding: .utf8).contains("Oops"))
    }

    @Test func snapshotsRecordThenMatch() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let source = """
            app sh -c "printf 'snap\\\\nshot'; exec cat"
            size 20x4
            launch
            expect "shot"
            timeout 300ms
            snapshot screen
            """
        let first = try #require(failure(of: try await fixture.run(source, name: "snapper.flow", options: testOptions(record: .missing))))
        #expect(first.summary.hasPrefix("snapshot screen: No reference snapshot \"snapper.screen\" was found; recorded it"))
        let reference = fixture.folder + "/__Snapshots__/snapper/snapper.screen.txt"
        #expect(try String(contentsOfFile: reference, encoding: .utf8).contains("│snap                │"))
        #expect(FileManager.default.fileExists(atPath: fixture.folder + "/__Snapshots__/snapper/snapper.screen.svg"))
        #expect(try await fixture.run(source, name: "snapper.flow", options: testOptions(record: .never)) == .passed)

        try fixture.write(source.replacingOccurrences(of: "shot'", with: "shoot'").replacingOccurrences(of: "\"shot\"", with: "\"shoot\""),
                          at: "snapper.flow")
        let changed = try #require(failure(of: try await fixture.run(
            String(contentsOfFile: fixture.folder + "/snapper.flow", encoding: .utf8), name: "snapper.flow",
            options: testOptions(record: .never, artifacts: fixture.folder + "/artifacts"))))
        #expect(changed.summary == "snapshot screen: Snapshot \"snapper.screen\" does not match its reference.")
        #expect(changed.message.contains("+│shoot"))
    }
}
