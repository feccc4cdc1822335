import Foundation
import Testing
@testable import harness

@Suite struct ScreenCommandTests {
    @Test func rendersFinalScreenTrimmed() {
        let data = Data("hi\u{1B}[31m there   \r\n\u{1B}[2;5Hx".utf8)
        #expect(ScreenCommand.render(data, cols: 20, rows: 3) == "hi there\n    x\n\n")
    }

    @Test(arguments: ["80x24", "1X1", "200x50"])
    func acceptsSizes(text: String) throws {
        _ = try ScreenCommand.parseSize(text)
    }

    @Test(arguments: ["80", "x24", "80x", "0x10", "80x24x1", "axb", "-1x5", "99999x2"])
    func rejectsBadSizes(text: String) {
        #expect(throws: CommandError.self) { try ScreenCommand.parseSize(text) }
    }

    @Test(arguments: [
        ([], Int32(64)),
        (["bogus"], 64),
        (["screen"], 64),
        (["screen", "--size", "80by24", "file"], 64),
        (["screen", "--size"], 64),
        (["screen", "--frobnicate", "file"], 64),
        (["screen", "a", "b"], 64),
        (["screen", "/nonexistent/recording.bytes"], 1),
    ] as [([String], Int32)])
    func badUsageExitStatus(arguments: [String], status: Int32) async {
        #expect(await HarnessCLI.run(arguments) == status)
    }

    @Test func readsAFile() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("screen-\(UUID().uuidString).bytes")
        try Data("ok".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(await HarnessCLI.run(["screen", "--size", "10x2", url.path]) == 0)
    }
}

/// `harness screen` reads any path (a pipe through `/dev/fd/N`, standard input) and prints the
/// title and the modes the program left set after the screen.
@Suite struct ScreenCommandTitleAndModesTests {
    @Test func printsTheTitleAndTheModesSet() {
        let data = Data("\u{1B}]2;my title\u{07}\u{1B}[?2004h\u{1B}[?1000h\u{1B}[?1006h\u{1B}[?25l\u{1B}[?1049hhi".utf8)
        #expect(ScreenCommand.render(data, cols: 10, rows: 2) == """
            hi

            title: "my title"
            modes: bracketedPaste, cursorVisible=false, alternateScreen, mouseTracking=normal (mode 1000), mouseEncoding=SGR (mode 1006)

            """)
    }

    @Test func aResetTerminalPrintsOnlyTheScreen() {
        #expect(ScreenCommand.render(Data("\u{1B}[?2004h\u{1B}[?2004lok".utf8), cols: 5, rows: 1) == "ok\n")
    }

    @Test func readsAPipeThroughDevFd() async throws {
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data("from a pipe\u{1B}]0;piped\u{07}".utf8))
        try pipe.fileHandleForWriting.close()
        defer { try? pipe.fileHandleForReading.close() }
        #expect(await HarnessCLI.run(["screen", "--size", "20x2", "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)"]) == 0)
    }

    @Test func readsStandardInputThroughAPipesFlow() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outcome = try await fixture.run(#"""
            app ${HARNESS_PRODUCTS_DIR}/harness screen --size 20x2 -
            stdin "typed\e]2;from stdin\x07\e[?2004h"
            launch pipes
            stdout equals expected.txt
            exit 0
            """#.replacingOccurrences(of: "expected.txt", with: try fixture.write(
                "typed\n\ntitle: \"from stdin\"\nmodes: bracketedPaste\n", at: "expected.txt")))
        #expect(outcome == .passed, "\(outcome)")
    }
}
