import Foundation
import HarnessCore
import TestSupport
import Testing
@testable import HarnessFlows

/// Pictures where users meet them: `harness run --gif`, a failed flow's `.screen.png`,
/// `harness render`, and the todo app's GIF in docs/, each decoded by Python's standard
/// library (`Scripts/picture-check.py`) and compared with the screen's cells.
@Suite struct PicturesCommandTests {
    static let root = DocumentedExamples.packageRoot(fromTestFile: #filePath).path

    @Test func runWithGifWritesAnAnimationPerFlowAndAFailedScreenAsPNG() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try fixture.write("""
            app sh -c "echo one; read line; echo two; exec cat"
            launch
            expect "one"
            type "go"
            press enter
            expect "two"
            """, at: "suite/pass.flow")
        try fixture.write("""
            app sh -c "printf '\\\\033[1;31mwrong\\\\033[0m text\\\\n'; exec cat"
            size 30x4
            launch
            expect "wrong"
            timeout 200ms
            expect "the right text"
            """, at: "suite/fail.flow")
        let output = try await runHarness(["run", "suite", "--gif", "--artifacts", "out"], in: fixture.folder)
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        let out = fixture.folder + "/out/suite/"
        let pass = try await PictureCheck.summary("gif", of: out + "pass.gif")
        #expect((pass["frames"] as? Int ?? 0) >= 2)
        #expect(pass["loop"] as? Int == 0)
        #expect(pass["width"] as? Int == 80 * 8)
        #expect(try await PictureCheck.differences(of: out + "pass.gif", from: RecordingPictures.screen(of: AsciicastReader.read(path: out + "pass.cast"))) == nil)
        #expect(FileManager.default.fileExists(atPath: out + "fail.gif"))

        let png = try await PictureCheck.summary("png", of: out + "fail.screen.png")
        #expect(png["width"] as? Int == 30 * 8)
        #expect(png["height"] as? Int == 4 * 16)
        #expect(try await PictureCheck.differences(of: out + "fail.screen.png", from: RecordingPictures.screen(of: AsciicastReader.read(path: out + "fail.cast"))) == nil)
        #expect(FileManager.default.fileExists(atPath: out + "fail.screen.svg"))
    }

    @Test func gifNeedsArtifactsAndAFont() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try fixture.write("app true\nlaunch\nexit 0\n", at: "suite/a.flow")
        let noFolder = try await runHarness(["run", "suite", "--gif"], in: fixture.folder)
        #expect(noFolder.status == 64)
        #expect(noFolder.stderr.contains("--gif writes each flow's GIF into the artifacts folder: it needs --artifacts"), "\(noFolder.stderr)")
        let noFont = try await runHarness(["run", "suite", "--gif", "--artifacts", "out"], in: fixture.folder,
                                          environment: [UnifontFont.environmentVariable: "/nonexistent/unifont.hex"])
        #expect(noFont.status == 1)
        #expect(noFont.stderr.contains("--gif: cannot read the font /nonexistent/unifont.hex"), "\(noFont.stderr)")
    }

    /// A bundled todo flow's recording drawn by `harness render`: the PNG of the loaded list and
    /// the GIF's last frame match the screens replayed from the recording, cell by cell.
    @Test func renderDrawsATodoFlowsRecording() async throws {
        try await withTemporaryDirectory { folder in
            let artifacts = folder.path + "/artifacts"
            let run = try await runHarness(["run", "Tests/Flows/loaded.flow", "--trace", "on", "--artifacts", artifacts], in: Self.root)
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            let castPath = artifacts + "/Tests/Flows/loaded.cast"
            let cast = try AsciicastReader.read(path: castPath)
            let loaded = try #require(cast.events.map(\.time).first { RecordingPictures.screen(of: cast, at: $0).lines.contains { $0.contains("Todos (25)") } })
            let gif = folder.path + "/todo.gif", png = folder.path + "/todo.png"
            let output = try await runHarness(
                ["render", castPath, "--gif", gif, "--png", png, "--png-at", "\(loaded)", "--until", "\(loaded)", "--min-delay", "0.5"],
                in: folder.path)
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stdout.contains("\(gif): "), "\(output.stdout)")
            let summary = try await PictureCheck.summary("gif", of: gif)
            #expect((summary["frames"] as? Int ?? 0) >= 2)
            #expect((summary["delays"] as? [Int] ?? []).allSatisfy { $0 >= 50 })
            let screen = RecordingPictures.screen(of: cast, at: loaded)
            #expect(try await PictureCheck.differences(of: png, from: screen) == nil)
            #expect(try await PictureCheck.differences(of: gif, from: screen) == nil)
        }
    }

    @Test(arguments: [
        (["render", "a.cast"], 64, "nothing to write: give --gif OUT.gif, --png OUT.png or both"),
        (["render", "a.cast", "--gif", "x.gif", "--png-at", "1"], 64, "--png-at says when the PNG is taken: it needs --png OUT.png"),
        (["render", "a.cast", "--png", "x.png", "--png-at", "soon"], 64, "--png-at \"soon\": expected seconds"),
        (["render", "missing.cast", "--gif", "x.gif"], 1, "cannot read missing.cast"),
        (["render", "a.cast", "--gif", "x.gif", "--font", "/nonexistent/u.hex"], 1, "cannot read the font /nonexistent/u.hex"),
    ])
    func renderSaysWhatIsWrong(_ arguments: [String], status: Int32, message: String) async throws {
        try await withTemporaryDirectory { folder in
            try Data("{\"version\": 2, \"width\": 10, \"height\": 2}\n[0.1, \"o\", \"hi\"]\n".utf8).write(to: folder.appendingPathComponent("a.cast"))
            let output = try await runHarness(arguments, in: folder.path)
            #expect(output.status == status)
            #expect(output.stderr.contains(message), "\(output.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.path + "/x.gif"))
        }
    }

    /// The README's demo: a GIF of the todo app with several frames, made by `harness render`.
    @Test func docsGIFIsAnAnimationOfTheTodoApp() async throws {
        let summary = try await PictureCheck.summary("gif", of: Self.root + "/docs/todo.gif")
        #expect((summary["frames"] as? Int ?? 0) >= 3)
        #expect(summary["width"] as? Int == 80 * 8)
        #expect(summary["loop"] as? Int == 0)
        let readme = try String(contentsOfFile: Self.root + "/README.md", encoding: .utf8)
        #expect(readme.contains("![The todo app, drawn by harness render](docs/todo.gif)"))
    }
}
