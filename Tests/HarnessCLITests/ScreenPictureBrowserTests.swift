import Foundation
import TestSupport
import Testing
import Harness
import HarnessFlows
import TerminalEmulator

/// Screen pictures (``ScreenSVG``) as headless Chromium draws them: every glyph starts on its
/// cell (`getStartPositionOfChar` against column × cell width), in an SVG file, inline in a
/// page, and in a run report's thumbnails, replay and changed-snapshot review. A renderer change
/// that collapses spaces or stretches text fails here.
@Suite(.enabled(if: HeadlessChromium.isInstalled, "chromium is not installed (.ci/run installs it: apt-get install -y chromium)"))
struct ScreenPictureBrowserTests {
    /// A screen with the hard cases: padding between words, two lines that differ only in
    /// whitespace, wide characters (CJK, an emoji), combining marks, decorated blanks (their
    /// line crosses them), inverse, a no-break space, box drawing, and hidden text.
    static func screen() -> ScreenSnapshot {
        let terminal = Terminal(cols: 44, rows: 8)
        terminal.feed("\u{1B}[1;37;44m Todos (25) · loaded 22:13            1/25 \u{1B}[0m\r\n")
        terminal.feed(" [ ] pack  the bags\r\n")
        terminal.feed(" [ ] pack   the bags\r\n")
        terminal.feed(" [x] 買い物リスト: 牛乳と卵  🍎 ok\r\n")
        terminal.feed(" café cafe\u{301} x\u{20DD}y n\u{303}o\r\n")
        terminal.feed("\u{1B}[4m under  lined \u{1B}[24m \u{1B}[9mstruck  through\u{1B}[0m\r\n")
        terminal.feed("\u{1B}[7m inverse  \u{1B}[0m a\u{A0}b ┌──┐ \u{1B}[8msecret\u{1B}[0m   end")
        return terminal.snapshot()
    }

    /// How a picture reaches the browser: as an SVG file, inline in an HTML page, or as an
    /// `<img>` of a data URL (laid out again by the probe, since an image has no DOM).
    enum Embedding: String, CaseIterable {
        case svgFile, inlineInHTML, imageDataURL
    }

    @Test(arguments: Embedding.allCases)
    func everyGlyphOfAScreenStartsOnItsCell(embedding: Embedding) async throws {
        let folder = try TemporaryDirectory(prefix: "harness-screen-picture")
        defer { folder.remove() }
        let screen = Self.screen()
        let svg = ScreenSVG.render(screen)
        let path = switch embedding {
        case .svgFile: try folder.write(svg, at: "screen.svg")
        case .inlineInHTML:
            try folder.write("<!DOCTYPE html><html><body><div>\(svg.drop { $0 != "\n" })</div></body></html>", at: "screen.html")
        case .imageDataURL:
            try folder.write("<!DOCTYPE html><html><body><img src=\"data:image/svg+xml;base64,\(Data(svg.utf8).base64EncodedString())\">"
                             + "</body></html>", at: "screen.html")
        }
        let pictures = try await GlyphProbe.pictures(onPageAt: path)
        let picture = try #require(pictures.first, "no picture on the page")
        #expect(pictures.count == 1 && picture.cols == screen.cols && picture.rows == screen.rows)
        let problems = picture.problems(showing: screen)
        #expect(problems.isEmpty, "\(problems.count) glyphs off their cells:\n\(problems.prefix(20).joined(separator: "\n"))\n\(svg)")
    }

    /// The todo app against a list with padding, wide text and a title that then changes only
    /// in whitespace: the recorded reference SVG, and the run report of the changed snapshot
    /// (thumbnails, replay, and the review of the two sides).
    static let flow = """
        app ${HARNESS_PRODUCTS_DIR}/todo
        size 80x24
        clock 2023-11-14T22:13:20Z
        stub GET /todos 200 json todos.json
        set api.timeout=86400

        launch
        expect "[ Start ]"
        press enter
        expect "[x] 買い物リスト"
        # Drawn: the snapshot of the changed list need not wait for a screen equal to the reference.
        timeout 1s
        snapshot list
        press q
        exit 0
        """

    static func todos(packing spaces: Int) -> String {
        let pack = "pack" + String(repeating: " ", count: spaces) + "the bags"
        return """
            [{"userId": 1, "id": 1, "title": "\(pack)", "completed": false},
             {"userId": 1, "id": 2, "title": "買い物リスト: 牛乳と卵", "completed": true},
             {"userId": 1, "id": 3, "title": "buy 🍎 and cafe\\u0301", "completed": false},
             {"userId": 1, "id": 4, "title": "Éclair  recipe", "completed": false}]
            """
    }

    @Test func theTodoAppsReferenceAndReportDrawEveryGlyphOnItsCell() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try fixture.write(Self.flow, at: "suite/list.flow")
        try fixture.write(Self.todos(packing: 2), at: "suite/todos.json")
        let record = try await runHarness(["run", "suite"], in: fixture.folder, environment: ["HARNESS_RECORD": "missing"])
        let reference = fixture.folder + "/suite/__Snapshots__/list/list.list"
        let referenceText = try String(contentsOfFile: reference + ".txt", encoding: .utf8)
        #expect(referenceText.contains("Todos (4) · loaded 22:13") && referenceText.contains("pack  the bags"),
                "\(record.stdout)\n\(record.stderr)\n\(referenceText)")

        // The reference SVG file, against the screen its text shows.
        let recorded = try #require(try await GlyphProbe.pictures(onPageAt: reference + ".svg").first)
        let recordedProblems = recorded.problems(showing: DrawnPicture.screen(framed: referenceText, cols: 80, rows: 24))
        #expect(recordedProblems.isEmpty, "\(recordedProblems.count) glyphs off their cells:\n\(recordedProblems.prefix(20).joined(separator: "\n"))")

        // The same list with one more space: the snapshot changes in whitespace only.
        try fixture.write(Self.todos(packing: 3), at: "suite/todos.json")
        let run = try await runHarness(["run", "suite", "--artifacts", "out", "--trace", "on"], in: fixture.folder)
        #expect(run.status == 1, "\(run.stdout)\n\(run.stderr)")
        let pictures = try await GlyphProbe.pictures(onPageAt: fixture.folder + "/out/index.html")
        let places = pictures.map(\.place)
        #expect(places.contains("thumb") && places.contains("player"), "\(places)")
        let expected = try #require(pictures.first { $0.place == "expected" }, "\(places)")
        let actual = try #require(pictures.first { $0.place == "actual" }, "\(places)")
        let expectedText = try #require(expected.text), actualText = try #require(actual.text)
        #expect(expectedText != actualText && expectedText.filter { !$0.isWhitespace } == actualText.filter { !$0.isWhitespace })
        for picture in pictures {
            // The player opens a failed flow at its last frame: the screen the snapshot took.
            let text = picture.place == "expected" ? expectedText : ["actual", "player"].contains(picture.place) ? actualText : nil
            let problems = picture.problems(showing: text.map { DrawnPicture.screen(framed: $0, cols: picture.cols, rows: picture.rows) })
            #expect(problems.isEmpty, "\(picture.place): \(problems.count) glyphs off their cells:\n\(problems.prefix(20).joined(separator: "\n"))")
        }
    }

    /// Cells that a reference's text shows and its picture hides (SGR 8), by the reference's
    /// name up to its first dot.
    static let concealed: [String: [(row: Int, cols: ClosedRange<Int>)]] = [
        "colourfulScreen": [(3, 14...19)],  // "hidden" in SnapshotTests' ScreenFixtures.colourful()
    ]

    /// Every reference picture of the package shows the screen of the text beside it, glyph by
    /// glyph: one drawn by an older renderer, or edited by hand, fails here.
    @Test func everyReferencePictureDrawsTheScreenOfItsText() async throws {
        let tests = DocumentedExamples.packageRoot(fromTestFile: #filePath).appendingPathComponent("Tests").path
        let references = (FileManager.default.enumerator(atPath: tests)?.allObjects as? [String] ?? [])
            .filter { $0.contains("__Snapshots__/") && $0.hasSuffix(".svg") }.sorted()
        #expect(references.count >= 60, "\(references)")
        let pictures = try await GlyphProbe.pictures(onPagesAt: references.map { tests + "/" + $0 })
        for (reference, drawn) in zip(references, pictures) {
            let text = try String(contentsOfFile: tests + "/" + reference.dropLast(".svg".count) + ".txt", encoding: .utf8)
            let picture = try #require(drawn.first, "\(reference): no picture")
            let name = String(reference.split(separator: "/").last!.prefix { $0 != "." })
            let screen = DrawnPicture.screen(framed: text, cols: picture.cols, rows: picture.rows, concealed: Self.concealed[name] ?? [])
            let problems = picture.problems(showing: screen)
            #expect(problems.isEmpty, "\(reference): \(problems.count) glyphs off their cells:\n\(problems.prefix(10).joined(separator: "\n"))")
        }
    }
}
