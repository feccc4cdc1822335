import Testing
import TerminalEmulator

/// `locate`, `TextStyle`, color names, `ScreenArea` and `region` on screens built from escape
/// sequences.
@Suite struct ScreenLocateTests {
    /// Row 0: "Todos" bold; row 1: "Oops" bold red then "ok" plain; row 2: "中文" green on
    /// palette 196; row 3: "warn" italic underline inverse #102030; row 4: "q quit".
    static let sample = screen(
        "\(CSI)1mTodos\(CSI)0m\r\n"
            + "\(CSI)1;31mOops\(CSI)0m ok\r\n"
            + "\(CSI)32;48;5;196m中文\(CSI)0m\r\n"
            + "\(CSI)3;4;7;38;2;16;32;48mwarn\(CSI)0m\r\n"
            + "q quit",
        cols: 20, rows: 6)

    @Test func locatesTextWithItsCells() {
        let found = Self.sample.locate("Oops")
        #expect(found.count == 1)
        #expect(found[0].position == ScreenPosition(row: 1, col: 0))
        #expect(found[0].text == "Oops")
        #expect(found[0].cells.map(\.character) == ["O", "o", "p", "s"])
        #expect(found[0].style.isBold)
        #expect(found[0].style.foreground == .named(.red))
        #expect(found[0].uniformStyle == CellAttributes(foreground: .indexed(1), bold: true))
        #expect(found[0].region == ScreenRegion(row: 1, col: 0, width: 4, height: 1))
        #expect(Self.sample.locate("absent").isEmpty)
        #expect(Self.sample.locate("").isEmpty)
    }

    @Test func wideCharactersCoverTwoCells() {
        let found = Self.sample.locate("文")
        #expect(found.map(\.position) == [ScreenPosition(row: 2, col: 2)])
        #expect(found[0].cells.map(\.width) == [2, 0])
        #expect(found[0].style.foreground == .named(.green) && found[0].style.background == .palette(196))
    }

    @Test func locatesRegexMatches() throws {
        let found = try Self.sample.locate(regex: "[a-z]{4}")
        #expect(found.map(\.text) == ["odos", "warn", "quit"])
        #expect(found.map(\.position.row) == [0, 3, 4])
        #expect(throws: ScreenQueryError.self) { try Self.sample.locate(regex: "(") }
    }

    @Test func mixedStylesHaveNoUniformStyle() {
        let found = Self.sample.locate("s ok")
        #expect(found.count == 1)
        #expect(found[0].style.isBold)
        #expect(found[0].uniformStyle == nil)
        #expect(!TextStyle.bold.matches(found[0]))
        #expect(TextStyle.bold.firstDifference(in: found[0])?.index == 1)
    }

    // MARK: - TextStyle

    @Test(arguments: [
        (TextStyle(bold: true, foreground: .named(.red)), "Oops", true),
        (TextStyle.bold, "Oops", true),
        (TextStyle.bold, "ok", false),
        (TextStyle(bold: false), "ok", true),
        (TextStyle.plain, "ok", true),
        (TextStyle.plain, "Oops", false),
        (TextStyle.foreground(.named(.brightRed)), "Oops", false),
        (TextStyle.foreground(.palette(1)), "Oops", true),
        (TextStyle.background(.palette(196)).and(.foreground(.named(.green))), "中文", true),
        (TextStyle(italic: true, underline: true, inverse: true, foreground: .rgb(16, 32, 48)), "warn", true),
        (TextStyle(italic: true, foreground: .rgb(16, 32, 49)), "warn", false),
        (TextStyle.inverse, "q quit", false),
        (TextStyle.dim, "Todos", false),
        (TextStyle(strikethrough: false), "Todos", true),
    ])
    func styleMatchesEveryCell(style: TextStyle, text: String, expected: Bool) throws {
        let match = try #require(Self.sample.locate(text).first)
        #expect(style.matches(match) == expected, "\(style) on \(text)")
    }

    @Test func differencesNameExpectedAndFound() {
        let attributes = CellAttributes(foreground: .named(.red))
        #expect(TextStyle(bold: true, foreground: .named(.red)).differences(from: attributes) == ["bold: expected on, found off"])
        #expect(TextStyle(italic: false, foreground: .palette(196), background: .rgb(1, 2, 3)).differences(from: attributes) == [
            "fg: expected 196, found red", "bg: expected #010203, found default",
        ])
        #expect(TextStyle().differences(from: attributes).isEmpty)
        #expect(TextStyle().checksNothing)
    }

    @Test func descriptionIsTheFlowSpelling() {
        #expect(TextStyle(bold: true, italic: false, foreground: .named(.red), background: .rgb(16, 32, 48)).description
            == "bold not-italic fg=red bg=#102030")
        #expect(TextStyle.plain.description == "plain")
        #expect(TextStyle().description == "any")
        #expect(TextStyle(foreground: .named(.brightBlue), background: .palette(208)).description == "fg=bright-blue bg=208")
        #expect(TextStyle().setting("underline", to: true) == .underline)
        #expect(TextStyle().setting("blod", to: true) == nil)
    }

    @Test(arguments: ["default", "black", "red", "bright-white", "16", "255", "#102030"])
    func colorNamesRoundTrip(name: String) throws {
        let color = try #require(TerminalColor(styleName: name))
        #expect(color.styleName == name)
    }

    @Test(arguments: ["", "reddish", "256", "-1", "#12345", "#1234567", "#gg0000", "bright", "Red"])
    func badColorNamesAreRefused(name: String) {
        #expect(TerminalColor(styleName: name) == nil)
    }

    @Test func namedColorsAreThePalette() {
        #expect(TerminalColor.named(.red) == .indexed(1))
        #expect(TerminalColor(styleName: "0") == .named(.black))
        #expect(TerminalColor.named(.brightWhite) == .indexed(15))
        #expect(TerminalColor(styleName: "#FF0000") == .rgb(255, 0, 0))
        #expect(BasicColor.allCases.map(\.name).count == 16)
    }

    // MARK: - Areas and regions

    @Test func areasResolveOnTheScreen() {
        let screen = Self.sample
        #expect(ScreenArea.rows(1...2).region(on: screen) == ScreenRegion(row: 1, col: 0, width: 20, height: 2))
        #expect(ScreenArea.rows(4...99).region(on: screen) == ScreenRegion(row: 4, col: 0, width: 20, height: 2))
        #expect(ScreenArea.rows(7...9).region(on: screen) == nil)
        #expect(ScreenArea.rows(between: "Todos", and: "q quit").region(on: screen)
            == ScreenRegion(row: 0, col: 0, width: 20, height: 5))
        #expect(ScreenArea.rows(between: "Todos", and: "q quit", inclusive: false).region(on: screen)
            == ScreenRegion(row: 1, col: 0, width: 20, height: 3))
        #expect(ScreenArea.rows(between: "Oops", and: "absent").region(on: screen) == nil)
        #expect(ScreenArea.rows(between: "Oops", and: "Todos").region(on: screen) == nil)   // the end is above the start
        #expect(ScreenArea.rows(between: "Oops", and: "中文", inclusive: false).region(on: screen) == nil)
        #expect(ScreenArea.rectangle(ScreenRegion(row: 1, col: 18, width: 5, height: 1)).region(on: screen)
            == ScreenRegion(row: 1, col: 18, width: 2, height: 1))
    }

    @Test func locateInsideAnArea() {
        let screen = Self.sample
        #expect(screen.locate("ok", in: .rows(1...1)).count == 1)
        #expect(screen.locate("ok", in: .rows(2...4)).isEmpty)
        #expect(screen.locate("Oops", in: .rows(between: "Todos", and: "q quit", inclusive: false)).count == 1)
        #expect(screen.locate("Todos", in: .rows(between: "Todos", and: "q quit", inclusive: false)).isEmpty)
        // A match must lie entirely inside a rectangle.
        #expect(screen.locate("Oops", in: .rectangle(ScreenRegion(row: 1, col: 0, width: 4, height: 1))).count == 1)
        #expect(screen.locate("Oops", in: .rectangle(ScreenRegion(row: 1, col: 1, width: 4, height: 1))).isEmpty)
        #expect(screen.locate("ok", in: .rows(between: "x", and: "y")).isEmpty)
    }

    @Test func regionIsAScreenOfItsOwn() throws {
        let part = try Self.sample.region(.rows(between: "Oops", and: "中文"))
        #expect(part.cols == 20 && part.rows == 2)
        #expect(part.lines == ["Oops ok", "中文"])
        #expect(part.cell(row: 0, col: 0).attributes.bold)
        #expect(!part.cursor.visible)   // the cursor (row 4) is outside
        #expect(throws: ScreenQueryError.areaNotFound(#"rows between "Oops" and "nope""#)) {
            try Self.sample.region(.rows(between: "Oops", and: "nope"))
        }
        // A wide character cut by an edge becomes a blank.
        let cut = Self.sample.region(ScreenRegion(row: 2, col: 1, width: 2, height: 3))
        #expect(cut.lines == ["", "ar", " q"])
        #expect(cut.cell(row: 0, col: 0).width == 1 && cut.cell(row: 0, col: 1).width == 1)
        // The cursor inside moves with the region.
        let lastRow = Self.sample.region(ScreenRegion(row: 4, col: 0, width: 10, height: 1))
        #expect(lastRow.cursor == CursorState(row: 0, col: 6, visible: true))
    }
}

