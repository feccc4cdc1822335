import Foundation
import Harness
import HarnessFlowCases
import HarnessHost
import Stubs
import HarnessSystem
import TestSupport
import Testing
import TodoCore

/// README.md's "A short tour of the API", run for real: each ```swift block of the tour is here
/// as code that compiles and runs against the todo app or a real program (`python3 -q`, `sort`),
/// with the names the README leaves out (`unsortedTodos`, `launch`, `state`...) defined around
/// it. `everyTourExampleIsMirroredHere` fails when a line of a block is not in this file, in
/// order and verbatim (leading and trailing blanks aside), so a README edit must be made here too.
/// The tour's flow script is the bundled flow `Tests/Flows/readme/tour.flow`, run by `harness run`.
@Suite(.tags(.acceptance))
struct ReadmeExamplesTests {
    // MARK: - The names the README's examples leave to the reader

    /// The todos the stub serves, in an order that is not the display order.
    let unsortedTodos = TodoFixture.unsorted
    /// The same, for the state-machine example.
    let unsorted = TodoFixture.unsorted
    /// The display order, written out.
    let sorted = TodoFixture.sorted
    /// The todo app with its bridge, color on and a frozen clock.
    var launch: AppLaunch { get throws { try TodoFixture.launch() } }

    // MARK: - Drive an app and wait on its screen

    @Test func loadsTheSortedList() async throws {
        let server = try StubServer()                          // 127.0.0.1, a free port
        defer { server.stop() }
        try server.stub(.get("/todos"), .json(unsortedTodos))

        var launch = AppLaunch(executable: try BuildProducts.executable(named: "todo").path)
        launch.launchProtocol = .bridge                        // todo links HarnessHost: spies, events
        launch.network = server.baseURL                        // --harness-network
        launch.size = TerminalSize(cols: 80, rows: 24)

        try await TerminalApp.with(launch) { app in            // PTY + sandbox + bridge, always torn down
            try await app.waitFor(text: "[ Start ]")           // the first screen: keys sent before it may be lost
            try app.press(.enter)
            try await app.waitFor(text: "Todos (7)")           // woken by each chunk of output
            #expect(try await app.bridge.spy("database.save", as: [Todo].self).count == 1)
            #expect(app.sandbox.exists("todos.json"))          // black box: it really is on disk
            try server.verify(.get("/todos"), count: .exactly(1))
        }
    }

    /// The error screen's "Oops" in bold red, then (after Try again) the list in its area.
    @Test func stylesAndAreasOfTheScreen() async throws {
        let server = try StubServer()
        defer { server.stop() }
        server.stub(.get("/todos"), .sequence([.status(500), try .json(unsortedTodos)]))
        try await TerminalApp.with(TodoFixture.launch(network: server)) { app in
            try await app.waitFor(text: "[ Start ]")
            try app.press(.enter)

            let error = TextStyle(bold: true, foreground: .named(.red))
            try await app.waitFor(text: "Oops", style: error)            // times out saying which style it found
            #expect(app.screen.locate("Oops").first?.style.isBold == true)
            try app.press(.enter)                                        // try again: the sorted list
            try await app.waitFor(text: "milk", in: .rows(between: "Todos", and: "q quit"))
            assertSnapshot(of: app.screen, as: .screen(area: .rows(between: "Todos", and: "q quit")), named: "list")
        }
    }

    /// pexpect's semantics on Python's interactive prompt.
    @Test(.enabled(if: isInstalled("python3"))) func pythonPromptsAreReadAsAStream() async throws {
        let session = try TerminalSession.launch(.init(executable: "python3", arguments: ["-q"], environment: testEnvironment))
        defer { session.terminate() }

        try await session.waitForOutput(text: ">>> ")
        try session.type("1/0\r")
        let reply = try await session.waitForOutput(text: ">>> ")   // the NEW prompt
        #expect(reply.before.contains("ZeroDivisionError"))
    }

    /// The mouse example, on `dialog --menu` (ncurses with mouse reporting on).
    @Test(.enabled(if: isInstalled("dialog"))) func dialogIsClickedWithTheMouse() async throws {
        let session = try TerminalSession.launch(.init(
            executable: "dialog",
            arguments: ["--stdout", "--menu", "Pick a vegetable", "12", "40", "3",
                        "apple", "A fruit", "bean", "A legume", "carrot", "A root"],
            environment: testEnvironment, size: TerminalSize(cols: 60, rows: 16)))
        defer { session.terminate() }

        try await session.waitFor(text: "carrot")               // dialog --menu is drawn
        try session.click(text: "bean")                          // or click(row: 5, col: 21)
        try session.press(.enter)
        #expect(try await session.waitForExit() == .exited(0))
        #expect(session.outputAfterCursor.hasSuffix("bean"))    // dialog --stdout prints the tag
    }

    /// The modern-terminal example, on a bash whose prompt sends the OSC 133 marks of
    /// docs/FLOWS.md (the bundled flows' copy of that rc file).
    @Test(.enabled(if: isInstalled("bash"))) func shellMarksTitlesAndModifiedKeys() async throws {
        let rcFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Flows/third-party/fixtures/shell-marks.bash").path
        var environment = testEnvironment
        environment["HISTFILE"] = "/dev/null"
        let session = try TerminalSession.launch(.init(
            executable: "bash", arguments: ["--noprofile", "--rcfile", rcFile, "-i"],
            environment: environment, size: TerminalSize(cols: 80, rows: 24)))
        defer { session.terminate() }

        try session.type("(exit 3)\r")
        let command = try await session.waitForCommand()        // until its D mark: the command ended
        #expect(command.exitStatus == 3)
        try session.type("printf '\\e]2;%s\\a' 'build done'\r")
        try await session.waitFor(title: "build done")           // OSC 0 and 2
        try session.press(.ctrl(.left), .shift(.left))           // xterm's CSI 1;5D and CSI 1;2D here
    }

    @Test func sortRunsWithPipes() async throws {
        let launch = AppLaunch(executable: "sort")       // no protocol flags unless the test sets some
        let app = try PipedApp.launch(launch, standardInput: .text("b\na\n"))
        defer { app.close(failed: false) }
        let output = try await app.session.waitForExit()
        #expect(output.standardOutput == "a\nb\n" && output.standardError.isEmpty && output.shellStatus == 0)

        // The README's inline example after the block.
        assertSnapshot(of: output.standardOutputData, as: .rawText, named: "sorted")
    }

    // MARK: - Step flows

    @Test func stepFlow() async throws {
        let server = try StubServer()
        defer { server.stop() }
        server.stub(.get("/todos"), .hang)   // "Loading…" stays until the test moves on
        try await TerminalApp.with(TodoFixture.launch(network: server, values: TodoFixture.neverTimesOut)) { app in

            try await app.run(
                AppStep.expect(.text("[ Start ]")),
                AppStep(.press(.enter), expect: .text("Loading…"), .snapshot("loading")),
                AppStep(.call("given", json: #""error""#), expect: .text("Oops"), .noText("Loading…"),
                        .text("Oops", in: .rows(0...11), style: TextStyle(bold: true))),
                AppStep(.press(.character("q")), expect: .gone("Oops"), .exit(.exited(0))),
                stubServer: server                                     // `.requests("GET", "/todos", count: 1)` reads it
            )
            try server.verify(.get("/todos"), count: .exactly(1))
        }
    }

    /// The README's flows-as-test-cases block: the bundled flows, each a test case.
    @Test(arguments: FlowCases.files(in: "Tests/Flows"))
    func bundledFlow(_ flow: FlowFile) async throws {
        try await FlowCases.run(flow)
    }

    // MARK: - Snapshots and snapshot matrices

    /// The loaded screen with the real clock (masked), and the app's state as JSON.
    @Test func snapshotsOfTheScreenAndOfAValue() async throws {
        let server = try StubServer()
        defer { server.stop() }
        try server.stub(.get("/todos"), .json(unsortedTodos))
        var launch = try TodoFixture.launch(network: server)
        launch.frozenClock = nil   // the header shows the time now: the mask hides it
        try await TerminalApp.with(launch) { app in
            try await app.run(
                AppStep.expect(.text("[ Start ]")),
                AppStep(.press(.enter), expect: .text("Todos (7)"), .text("q quit"))
            )
            let state = try await app.bridge.probe("state", as: TodoListState.self)

            assertSnapshot(of: app.screen, as: .screen(masks: [.regex(#"\d\d:\d\d"#)]), named: "loaded")
            assertSnapshot(of: state, as: .json)
        }
    }

    static let matrix = SnapshotMatrix(samples: [
        .init("Idle", initialState: "idle", readyText: "[ Start ]"),
        .init("Error", given: #""error""#, readyText: "Oops"),
    ])                                                        // x 80x24, 40x12, 132x43 x color, NO_COLOR
    @Test(arguments: matrix.cases) func screens(_ sample: SnapshotMatrix.Case) async throws {
        try await sample.assertSnapshot(launching: launch)    // screens.Error-40x12-nocolor.txt + .svg
    }

    /// The matrix makes every size in both color modes, named as the README's comment says.
    @Test func theMatrixHasTheCasesTheReadmeNames() {
        #expect(Self.matrix.cases.count == 2 * 3 * 2)
        #expect(Self.matrix.cases.map(\.name).contains("Error-40x12-nocolor"))
    }

    // MARK: - State machines as steps

    @Test func stateMachineSteps() {
        assertSteps(
            initialValue: TodoListState(),
            reducer: { state, message in state.handle(message) },
            steps:
                Step(.start, effect: .loadTodos) { $0.status = .loading },
                Step(.todosReceived(.success(unsorted)), effect: .saveTodos(sorted)) { $0.status = .loaded(sorted) }
        )
    }

    // MARK: - Inside the app: HarnessHost

    /// Run in the test process, which no harness launched: `start` finds no launch options and
    /// the host stays inert (no host, no options). The declarations compile against the real
    /// host; the todo app's own adoption of them is what the acceptance suite drives.
    @Test func harnessHostIsInertWithoutTheHarness() throws {
        let app = AppModel()
        let harness = try HarnessHost.start(appName: "todo")   // inert (no socket, no thread) without the harness
        if let host = harness.host {
            let saves = host.spy("database.save", of: [Todo].self)
            app.onSave = { todos in saves.record(todos) }
            host.probe("state") { app.currentState() }
            host.handle("given", as: TodoListState.self) { app.setState($0); return "ok" }
            host.publish("state", "idle")
            host.ready()
        }
        #expect(harness.host == nil)
        #expect(harness.options == nil)
        #expect(harness.bridgeError == nil)
    }

    /// The `app` of the HarnessHost example: a state and a save hook, readable from any thread.
    final class AppModel: Sendable {
        private let state = Locked(TodoListState())
        private let saveHook = Locked<(@Sendable ([Todo]) -> Void)?>(nil)

        /// Called with every list the app saves.
        var onSave: (@Sendable ([Todo]) -> Void)? {
            get { saveHook.withLock { $0 } }
            set { saveHook.withLock { $0 = newValue } }
        }

        func currentState() -> TodoListState { state.withLock { $0 } }
        func setState(_ new: TodoListState) { state.withLock { $0 = new } }
    }

    // MARK: - Spies

    /// The spy example on the todo app, which records the list it saves after loading.
    @Test func spiesSeeWhatTheAppDid() async throws {
        let server = try StubServer()
        defer { server.stop() }
        try server.stub(.get("/todos"), .json(unsortedTodos))
        try await TerminalApp.with(TodoFixture.launch(network: server)) { app in
            try await app.waitFor(text: "[ Start ]")

            let saves = try app.bridge.spy("database.save", as: [Todo].self)   // before the action
            try app.press(.enter)
            let saved = try await saves.waitForCall()          // the next call, decoded as [Todo]
            #expect(saved == sorted)
            _ = try await saves.waitForCall(number: 1)         // until the app has recorded 1 call
            #expect(try await saves.count == 1)                // what the app has recorded, now
            #expect(try await saves.calls == [sorted])         // every value, oldest first
        }
    }

    // MARK: - Flow scripts

    static let root = DocumentedExamples.packageRoot(fromTestFile: #filePath)
    static let tourFlow = "Tests/Flows/readme/tour.flow"

    /// The README's flow block, the only bare ``` block of the tour.
    static func tourFlowBlock() throws -> DocumentedExample {
        let readme = try DocumentedExamples.read("README.md", fromTestFile: #filePath)
        let blocks = DocumentedExamples.blocks(in: readme, document: "README.md", language: "", section: tourTitle)
        return try #require(blocks.first { $0.heading == "Flow scripts" }, "the tour lost its flow script")
    }

    @Test func theTourFlowIsTheBundledFlow() throws {
        let block = try Self.tourFlowBlock()
        let bundled = try String(contentsOf: Self.root.appendingPathComponent(Self.tourFlow), encoding: .utf8)
        if let failure = DocumentedExamples.verifyIdentical(block, to: bundled, fileName: Self.tourFlow) {
            Issue.record(Comment(rawValue: failure))
        }
    }

    /// `harness run` runs the flow against the todo app and passes (colors and the style check
    /// included, although `swift test` sets `NO_COLOR`: the flow's `env NO_COLOR=` undoes it).
    @Test func theTourFlowPasses() async throws {
        var launch = AppLaunch(executable: try BuildProducts.executable(named: "harness").path,
                               arguments: ["run", Self.tourFlow, "--record", "never", "--jobs", "1", "--timeout", "60s"])
        launch.workingDirectory = Self.root.path
        launch.environment = ["TERM": "xterm-256color"]
        launch.defaultTimeout = .seconds(120)
        let app = try PipedApp.launch(launch)
        defer { app.close(failed: false) }
        let output = try await app.session.waitForExit()
        #expect(output.shellStatus == 0, "\(output.standardOutput)\(output.standardError)")
        #expect(output.standardOutput.hasSuffix("1 passed, 0 failed\n"), "\(output.standardOutput)")
    }

    // MARK: - The README and this file stay in step

    static let tourTitle = "A short tour of the API"

    static func tourSwiftBlocks() throws -> [DocumentedExample] {
        let readme = try DocumentedExamples.read("README.md", fromTestFile: #filePath)
        return DocumentedExamples.blocks(in: readme, document: "README.md", language: "swift", section: tourTitle)
    }

    static func thisFile() throws -> String {
        try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
    }

    @Test func everyTourExampleIsMirroredHere() throws {
        let blocks = try Self.tourSwiftBlocks()
        #expect(blocks.count >= 8, "the tour's swift blocks were not found: \(blocks)")
        let source = try Self.thisFile()
        for block in blocks {
            if let failure = DocumentedExamples.verifyMirrored(block, in: source, sourceName: "ReadmeExamplesTests.swift") {
                Issue.record(Comment(rawValue: failure))
            }
        }
    }

    /// The check fails when the README says something this file does not: a changed line of a
    /// block, or a block's lines in another order.
    @Test func aReadmeEditNotMadeHereFails() throws {
        let source = try Self.thisFile()
        let drive = try #require(try Self.tourSwiftBlocks().first)
        var edited = drive.lines
        let index = try #require(edited.firstIndex { $0.contains(#"waitFor(text: "Todos (7)")"#) })
        edited[index] = edited[index].replacingOccurrences(of: "Todos (7)", with: "Todos (8)")
        let changed = DocumentedExample(document: drive.document, line: drive.line, heading: drive.heading, lines: edited)
        let failure = try #require(DocumentedExamples.verifyMirrored(changed, in: source, sourceName: "ReadmeExamplesTests.swift"))
        #expect(failure.contains("README.md:\(drive.line) (under \"Drive an app and wait on its screen\")"), "\(failure)")
        #expect(failure.contains(#"try await app.waitFor(text: "Todos (8)")"#), "\(failure)")
        #expect(failure.contains("its line \(drive.line + 1 + index)"), "\(failure)")

        var swapped = drive.lines
        swapped.swapAt(index, index + 1)
        let reordered = DocumentedExample(document: drive.document, line: drive.line, heading: drive.heading, lines: swapped)
        #expect(DocumentedExamples.verifyMirrored(reordered, in: source, sourceName: "ReadmeExamplesTests.swift") != nil)
    }

    @Test func aFlowEditNotMadeInTheBundledFlowFails() throws {
        let block = try Self.tourFlowBlock()
        let bundled = try String(contentsOf: Self.root.appendingPathComponent(Self.tourFlow), encoding: .utf8)
        var edited = block.lines
        let index = try #require(edited.firstIndex(of: "press enter"))
        edited[index] = "press space"
        let changed = DocumentedExample(document: block.document, line: block.line, heading: block.heading, lines: edited)
        let failure = try #require(DocumentedExamples.verifyIdentical(changed, to: bundled, fileName: Self.tourFlow))
        #expect(failure.contains("docs: press space") && failure.contains("file: press enter"), "\(failure)")
    }
}
