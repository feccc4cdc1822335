import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Harness
import TerminalEmulator
import Testing

/// Parses an SVG document back into its elements, failing on malformed XML.
private final class SVGElements: NSObject, XMLParserDelegate {
    struct Element {
        var name: String
        var attributes: [String: String]
        var text: String
    }

    private(set) var elements: [Element] = []
    private var open: [Int] = []

    init(_ svg: String) throws {
        super.init()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = self
        guard parser.parse() else {
            throw ParseFailure(description: parser.parserError.map { "\($0)" } ?? "unknown XML error")
        }
    }

    struct ParseFailure: Error, CustomStringConvertible { var description: String }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        open.append(elements.count)
        elements.append(Element(name: name, attributes: attributes, text: ""))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if let index = open.last { elements[index].text += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        open.removeLast()
    }

    func named(_ name: String) -> [Element] { elements.filter { $0.name == name } }
    func text(containing text: String) -> Element? { named("text").first { $0.text.contains(text) } }
}

@Suite struct ScreenSVGTests {
    @Test func thePictureIsWellFormedWithAGridSizedRoot() throws {
        let screen = ScreenFixtures.colourful()
        let svg = try SVGElements(ScreenSVG.render(screen))
        let root = try #require(svg.elements.first)
        #expect(root.name == "svg")
        #expect(root.attributes["width"] == "\(30 * ScreenSVG.cellWidth)")
        #expect(root.attributes["height"] == "\(8 * ScreenSVG.cellHeight)")
        #expect(root.attributes["font-family"]?.contains("monospace") == true)
        #expect(svg.named("title").first?.text == "Colours & <tags>")
    }

    @Test func colorsAndAttributesAreDrawn() throws {
        let svg = try SVGElements(ScreenSVG.render(ScreenFixtures.colourful()))
        let error = try #require(svg.text(containing: "Error"))
        #expect(error.attributes["fill"] == "#cd0000")
        #expect(error.attributes["font-weight"] == "bold")
        #expect(svg.text(containing: "full")?.attributes["text-decoration"] == "underline")
        #expect(svg.text(containing: "struck")?.attributes["text-decoration"] == "line-through")
        #expect(svg.text(containing: "italic")?.attributes["font-style"] == "italic")
        #expect(svg.text(containing: "dim")?.attributes["opacity"] == "0.5")
        #expect(svg.text(containing: "orange")?.attributes["fill"] == "#ff8700")     // 256-color cube 208
        let rgb = try #require(svg.text(containing: "rgb"))
        #expect(rgb.attributes["fill"] == "#102030")
        let rects = svg.named("rect")
        #expect(rects.contains { $0.attributes["fill"] == "#faf0e6" })                  // truecolor background
        #expect(rects.contains { $0.attributes["fill"] == "#585858" && $0.attributes["width"] == "\(6 * ScreenSVG.cellWidth)" })  // gray 240, " gray "
        #expect(rects.contains { $0.attributes["fill"] == "#00cd00" })                  // green background of " OK "
        #expect(svg.text(containing: "OK")?.attributes["fill"] == "#000000")
        // Hidden text is not drawn at all.
        #expect(svg.text(containing: "hidden") == nil)
    }

    @Test func inverseSwapsForegroundAndBackground() throws {
        let svg = try SVGElements(ScreenSVG.render(ScreenFixtures.colourful()))
        let palette = TerminalPalette.xterm
        #expect(svg.text(containing: "inverse")?.attributes["fill"] == palette.defaultBackground)
        let row1 = svg.named("rect").filter { $0.attributes["y"] == "\(ScreenSVG.cellHeight)" }
        #expect(row1.contains { $0.attributes["fill"] == palette.defaultForeground && $0.attributes["x"] == "\(5 * ScreenSVG.cellWidth)" })
    }

    @Test func wideCharactersSpanTwoCells() throws {
        let svg = try SVGElements(ScreenSVG.render(ScreenFixtures.colourful()))
        let wide = try #require(svg.text(containing: "日"))
        #expect(wide.text == "wide: 日本")
        // Each character at its cell: "wide:" at 0-4, a blank, 日 over 6-7, 本 over 8-9.
        #expect(wide.attributes["x"] == [0, 1, 2, 3, 4, 5, 6, 8].map { String($0 * ScreenSVG.cellWidth) }.joined(separator: " "))
        #expect(wide.attributes["textLength"] == nil)
    }

    @Test func markupIsEscaped() throws {
        let rendered = ScreenSVG.render(ScreenFixtures.colourful())
        #expect(rendered.contains("&lt;a&amp;b&gt;"))
        let svg = try SVGElements(rendered)
        #expect(svg.text(containing: "<a&b>") != nil)
        #expect(ScreenSVG.escape("a\u{01}b\"'") == "a\u{FFFD}b&quot;&apos;")
    }

    @Test func aVisibleCursorIsOutlinedAndAHiddenOneIsNot() throws {
        let screen = ScreenFixtures.colourful()
        let svg = try SVGElements(ScreenSVG.render(screen))
        let cursor = try #require(svg.named("rect").first { $0.attributes["class"] == "cursor" })
        #expect(cursor.attributes["x"] == "\(screen.cursor.col * ScreenSVG.cellWidth)")
        #expect(cursor.attributes["y"] == "\(screen.cursor.row * ScreenSVG.cellHeight)")
        #expect(cursor.attributes["stroke"] != nil)

        let terminal = Terminal(cols: 5, rows: 2)
        terminal.feed("\u{1B}[?25lhi")
        let hidden = try SVGElements(ScreenSVG.render(terminal.snapshot()))
        #expect(!hidden.named("rect").contains { $0.attributes["class"] == "cursor" })
    }

    @Test func theCursorOnAWideCharacterCoversBothCells() throws {
        let terminal = Terminal(cols: 6, rows: 1)
        terminal.feed("日本\u{1B}[1;3H")
        let svg = try SVGElements(ScreenSVG.render(terminal.snapshot()))
        let cursor = try #require(svg.named("rect").first { $0.attributes["class"] == "cursor" })
        #expect(cursor.attributes["x"] == "\(2 * ScreenSVG.cellWidth)")
        #expect(cursor.attributes["width"] == "\(2 * ScreenSVG.cellWidth - 1)")
    }

    @Test func runsOfOneStyleShareOneTextElement() throws {
        let terminal = Terminal(cols: 40, rows: 2)
        terminal.feed("plain words here\r\n\u{1B}[32mgreen words\u{1B}[0m")
        let svg = try SVGElements(ScreenSVG.render(terminal.snapshot()))
        #expect(svg.named("text").map(\.text) == ["plain words here", "green words"])
        #expect(svg.named("text").first?.attributes["textLength"] == "\(16 * ScreenSVG.cellWidth)")
    }

    /// A line as `<text>` elements: each one's characters, `x` and `textLength` (in cells).
    struct Drawn: Equatable, CustomStringConvertible {
        var text: String
        var cells: [Int]
        var fitted: Int?
        init(_ text: String, _ cells: [Int], fitted: Int? = nil) { (self.text, self.cells, self.fitted) = (text, cells, fitted) }
        var description: String { "\(text)@\(cells)" + (fitted.map { "/\($0)" } ?? "") }
    }

    static func drawn(_ bytes: String, cols: Int = 40) throws -> [Drawn] {
        let terminal = Terminal(cols: cols, rows: 1)
        terminal.feed(bytes)
        return try SVGElements(ScreenSVG.render(terminal.snapshot())).named("text").map { text in
            Drawn(text.text, (text.attributes["x"] ?? "").split(separator: " ").map { Int($0)! / ScreenSVG.cellWidth },
                  fitted: text.attributes["textLength"].map { Int($0)! / ScreenSVG.cellWidth })
        }
    }

    /// No `<text>` holds spaces that a renderer's whitespace handling could drop or merge: a
    /// stretch of blanks ends a run, the next starts at its cell; ASCII runs are fitted to
    /// their cells, other runs place each character on its cell.
    @Test(arguments: [
        (" Todos (25) · loaded 22:13     1/25", [Drawn("Todos (25) · loaded 22:13", Array(1...25)), Drawn("1/25", [31], fitted: 4)]),
        ("pack  the bags", [Drawn("pack", [0], fitted: 4), Drawn("the bags", [6], fitted: 8)]),
        ("pack   the bags", [Drawn("pack", [0], fitted: 4), Drawn("the bags", [7], fitted: 8)]),
        ("  a b  ", [Drawn("a b", [2], fitted: 3)]),
        ("買い: 牛", [Drawn("買い: 牛", [0, 2, 4, 5, 6])]),  // docs/SNAPSHOTS.md: x="0 18 36 45 54"
        ("買い: 牛 ok", [Drawn("買い: 牛 ok", [0, 2, 4, 5, 6, 8, 9, 10])]),
        ("a\u{A0}b ┌─┐", [Drawn("a\u{A0}b ┌─┐", [0, 1, 2, 3, 4, 5, 6])]),
    ])
    func blanksNeverDependOnWhitespaceHandling(line: String, expected: [Drawn]) throws {
        #expect(try Self.drawn(line) == expected)
    }

    @Test func aCharacterOfSeveralScalarsOrBeyondTheBasicPlaneIsATextOfItsOwn() throws {
        #expect(try Self.drawn("buy 🍎 and cafe\u{301} x\u{20DD}y") == [
            Drawn("buy", [0], fitted: 3), Drawn("🍎", [4]), Drawn("and caf", [7], fitted: 7), Drawn("e\u{301}", [14]),
            Drawn("x\u{20DD}", [16]), Drawn("y", [17]),
        ])
    }

    @Test func decoratedBlanksAreKeptAndPreservedForTheirLine() throws {
        let terminal = Terminal(cols: 30, rows: 1)
        terminal.feed("\u{1B}[4m under  lined \u{1B}[24m plain  text")
        let texts = try SVGElements(ScreenSVG.render(terminal.snapshot())).named("text")
        #expect(texts.map(\.text) == [" under  lined ", "plain", "text"])
        #expect(texts[0].attributes["xml:space"] == "preserve" && texts[0].attributes["textLength"] == "\(14 * ScreenSVG.cellWidth)")
        #expect(texts[1].attributes["xml:space"] == nil)
    }

    @Test func theOutputIsDeterministic() {
        #expect(ScreenSVG.render(ScreenFixtures.colourful()) == ScreenSVG.render(ScreenFixtures.colourful()))
    }

    @Test(arguments: [(UInt8(1), "#cd0000"), (9, "#ff0000"), (16, "#000000"), (21, "#0000ff"), (196, "#ff0000"), (231, "#ffffff"), (232, "#080808"), (255, "#eeeeee")])
    func thePaletteFollowsXterm(index: UInt8, hex: String) {
        #expect(TerminalPalette.xterm.hex(.indexed(index)) == hex)
    }
}

@Suite struct TerminalPaletteTests {
    @Test func aShortPaletteFallsBackToXtermInsteadOfCrashing() {
        let palette = TerminalPalette(defaultForeground: "#ffffff", defaultBackground: "#000000", basic: ["#111111"])
        #expect(palette.hex(.indexed(0)) == "#111111")
        #expect(palette.hex(.indexed(15)) == "#ffffff")
        #expect(palette.hex(.default) == nil)
        #expect(ScreenSVG.render(ScreenFixtures.colourful(), palette: palette).contains("fill=\"#111111\""))
    }
}

/// A light terminal's pictures are drawn on its light palette: the colours it reports to the
/// program (OSC 10/11), from the snapshot's theme unless a palette is given.
@Suite struct ThemedPictureTests {
    @Test(arguments: TerminalTheme.allCases)
    func aPictureUsesTheSnapshotsTheme(theme: TerminalTheme) {
        let terminal = Terminal(cols: 12, rows: 2)
        terminal.theme = theme
        terminal.feed("hello \u{1B}[7minverse\u{1B}[m")
        let svg = ScreenSVG.render(terminal.snapshot())
        let palette = TerminalPalette(theme: theme)
        #expect(palette.defaultBackground == TerminalColor.hex(theme == .light ? 0xF4 : 0x10, theme == .light ? 0xF4 : 0x10,
                                                               theme == .light ? 0xF4 : 0x10))
        #expect(svg.contains("<rect width=\"108\" height=\"36\" fill=\"\(palette.defaultBackground)\"/>"))
        #expect(svg.contains("<g fill=\"\(palette.defaultForeground)\">"))
        // A masked or cut-out screen keeps its theme.
        let part = terminal.snapshot().region(ScreenRegion(row: 0, col: 0, width: 5, height: 1))
        #expect(ScreenSVG.render(part).contains("fill=\"\(palette.defaultBackground)\""))
        #expect(TerminalPalette(theme: .dark) == .xterm)
    }

    /// The PNG of a failure is drawn in the same theme as its SVG.
    @Test(arguments: TerminalTheme.allCases)
    func aPNGUsesTheSnapshotsTheme(theme: TerminalTheme) throws {
        let terminal = Terminal(cols: 12, rows: 2)
        terminal.theme = theme
        terminal.feed("hello")
        let font = try UnifontFont.load()
        let png = try ScreenPNG.render(terminal.snapshot(), font: font)
        #expect(png == (try ScreenPNG.render(terminal.snapshot(), palette: TerminalPalette(theme: theme), font: font)))
        let other: TerminalTheme = theme == .light ? .dark : .light
        #expect(png != (try ScreenPNG.render(terminal.snapshot(), palette: TerminalPalette(theme: other), font: font)))
    }
}
