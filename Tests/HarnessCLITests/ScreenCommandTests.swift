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
