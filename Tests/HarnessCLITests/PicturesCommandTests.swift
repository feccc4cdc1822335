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
            expect "go"
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
        let output = try await runHarness(["run", "suite", "--gif", "--trace", "on", "--artifacts", "out"], in: fixture.folder)
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        let out = fixture.folder + "/out/suite/"
        let pass = try await PictureCheck.summary("gif", of: out + "pass.gif")
        // The screens the flow typed on ("one", then "go" echoed) and the end, each at least
        // 0.25 s (the output after the last key may come in more than one frame).
        #expect((pass["frames"] as? Int ?? 0) >= 3)
        #expect((pass["delays"] as? [Int] ?? []).allSatisfy { $0 >= 25 })
        #expect(pass["loop"] as? Int == 0)
        #expect(pass["width"] as? Int == 80 * 8)
        try await PictureCheck.requireSame(out + "pass.gif", as: RecordingPictures.screen(of: AsciicastReader.read(path: out + "pass.cast")))
        #expect(FileManager.default.fileExists(atPath: out + "fail.gif"))

        let png = try await PictureCheck.summary("png", of: out + "fail.screen.png")
        #expect(png["width"] as? Int == 30 * 8)
        #expect(png["height"] as? Int == 4 * 16)
        try await PictureCheck.requireSame(out + "fail.screen.png", as: RecordingPictures.screen(of: AsciicastReader.read(path: out + "fail.cast")))
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

    /// docs/PICTURES.md's two commands, run as written (into a temporary folder): a bundled todo
    /// flow's recording drawn by `harness render`. The GIF's last frame and a PNG of the loaded
    /// list match the screens replayed from the recording, cell by cell.
    @Test func renderDrawsATodoFlowsRecordingAsTheDocsSay() async throws {
        let docs = try DocumentedExamples.read("docs/PICTURES.md", fromTestFile: #filePath)
        let block = try #require(DocumentedExamples.blocks(in: docs, document: "docs/PICTURES.md", language: "sh").first)
        let commands = block.lines.map { $0.split(separator: " ").map(String.init) }
        try #require(commands.count == 2 && commands.allSatisfy { $0.starts(with: ["swift", "run", "harness"]) })
        try await withTemporaryDirectory { folder in
            let rewrite = { (word: String) in
                word.replacingOccurrences(of: ".build/demo", with: folder.path + "/demo").replacingOccurrences(of: "docs/todo.gif", with: folder.path + "/todo.gif")
            }
            for command in commands {
                let output = try await runHarness(command.dropFirst(3).map(rewrite), in: Self.root)
                #expect(output.status == 0, "\(command.joined(separator: " ")): \(output.stdout)\(output.stderr)")
            }
            let castPath = folder.path + "/demo/Tests/Flows/try-again.cast", gif = folder.path + "/todo.gif"
            let cast = try AsciicastReader.read(path: castPath)
            let summary = try await PictureCheck.summary("gif", of: gif)
            #expect((summary["frames"] as? Int ?? 0) >= 3)
            #expect((summary["delays"] as? [Int] ?? []).allSatisfy { $0 >= 100 })
            let lastKey = try #require(cast.events.last { $0.kind == .input }).time
            try await PictureCheck.requireSame(gif, as: RecordingPictures.screen(of: cast, at: lastKey.nextDown))

            let loaded = try #require(cast.events.map(\.time).first { RecordingPictures.screen(of: cast, at: $0).lines.contains { $0.contains("Todos (25)") } })
            let png = folder.path + "/todo.png"
            let output = try await runHarness(["render", castPath, "--png", png, "--png-at", "\(loaded)"], in: folder.path)
            #expect(output.status == 0, "\(output.stderr)")
            try await PictureCheck.requireSame(png, as: RecordingPictures.screen(of: cast, at: loaded))
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
