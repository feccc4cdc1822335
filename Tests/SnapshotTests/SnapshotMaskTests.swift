import Foundation
import Harness
import TerminalEmulator
import TestSupport
import Testing

@Suite struct SnapshotMaskTests {
    private func screen(_ text: String, cols: Int = 20, rows: Int = 3) -> ScreenSnapshot {
        let terminal = Terminal(cols: cols, rows: rows)
        terminal.feed(text)
        return terminal.snapshot()
    }

    @Test func aRegexMaskFillsEachMatchedCellAndKeepsTheWidths() throws {
        let masked = try SnapshotMask.apply([.regex(#"\d\d:\d\d"#)], to: screen("at 12:34 and 05:06\r\npid 4242"))
        #expect(masked.line(0) == "at ▒▒▒▒▒ and ▒▒▒▒▒")
        #expect(masked.line(1) == "pid 4242")
        #expect(masked.cells.allSatisfy { $0.count == 20 })
    }

    @Test func aRegexMaskOverAWideCharacterFillsBothOfItsCells() throws {
        let masked = try SnapshotMask.apply([.regex("日本", fill: "#")], to: screen("a日本b"))
        #expect(masked.line(0) == "a####b")
        #expect(masked.framed().split(separator: "\n")[1] == "│a####b              │")
    }

    @Test func aRegionMaskFillsTheRectangleOnly() throws {
        let masked = try SnapshotMask.apply(
            [.region(ScreenRegion(row: 1, col: 2, width: 3, height: 2), fill: "*")],
            to: screen("abcdef\r\nabcdef\r\nabcdef")
        )
        #expect(masked.lines == ["abcdef", "ab***f", "ab***f"])
    }

    @Test func aRegionCuttingAWideCharacterBlanksItsOtherHalf() throws {
        let original = screen("x日y")   // x at 0, 日 at 1-2, y at 3
        let leftHalf = try SnapshotMask.apply([.region(ScreenRegion(row: 0, col: 0, width: 2, height: 1), fill: "*")], to: original)
        #expect(leftHalf.line(0) == "** y")
        let rightHalf = try SnapshotMask.apply([.region(ScreenRegion(row: 0, col: 2, width: 2, height: 1), fill: "*")], to: original)
        #expect(rightHalf.line(0) == "x **")
        #expect(leftHalf.cells[0].map(\.width).reduce(0, +) == 20)
        #expect(rightHalf.cells[0].map(\.width).reduce(0, +) == 20)
    }

    @Test func aRegionOutsideTheScreenIsClipped() throws {
        let original = screen("abc")
        let masked = try SnapshotMask.apply([.region(ScreenRegion(row: -5, col: 18, width: 50, height: 100))], to: original)
        #expect(masked.line(0) == "abc" + String(repeating: " ", count: 15) + "▒▒")
        #expect(try SnapshotMask.apply([.region(ScreenRegion(row: 9, col: 0, width: 5, height: 1))], to: original) == original)
    }

    @Test func maskedCellsKeepTheirAttributes() throws {
        let masked = try SnapshotMask.apply([.regex("42")], to: screen("\u{1B}[31m42\u{1B}[0m"))
        #expect(masked.cells[0][0].attributes.foreground == .indexed(1))
        #expect(masked.cells[0][0].character == "▒")
    }

    @Test func textMasksWorkOnLinesAndCharacters() throws {
        let text = "started 12:00:01\n/tmp/abc123/file\nend"
        #expect(try SnapshotMask.apply([.regex(#"/tmp/\w+"#, fill: "_")], to: text) == "started 12:00:01\n___________/file\nend")
        #expect(try SnapshotMask.apply([.region(ScreenRegion(row: 0, col: 8, width: 8, height: 1))], to: text)
                == "started ▒▒▒▒▒▒▒▒\n/tmp/abc123/file\nend")
        // A match spanning a newline keeps the newline.
        #expect(try SnapshotMask.apply([.regex("d\\ne")], to: "ad\nef") == "a▒\n▒f")
    }

    @Test func anInvalidPatternIsAClearError() {
        #expect(throws: SnapshotError.self) { try SnapshotMask.apply([.regex("(unclosed")], to: "x") }
        do {
            _ = try SnapshotMask.apply([.regex("(unclosed")], to: screen("x"))
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("\"(unclosed\" is not a valid regular expression"))
        }
    }

    @Test func masksAreAppliedBeforeComparingAndBeforeWriting() throws {
        try withTemporaryDirectory { folder in
            let masks: [SnapshotMask] = [.regex(#"\d\d:\d\d:\d\d"#), .region(ScreenRegion(row: 0, col: 19, width: 1, height: 1))]
            let first = screen("clock 10:11:12     |")
            let later = screen("clock 23:59:01     /")
            #expect(verifySnapshot(of: first, as: .screen(masks: masks), named: "clock", record: .missing, snapshotDirectory: folder) != nil)
            let reference = contents(of: folder.appendingPathComponent("masksAreAppliedBeforeComparingAndBeforeWriting.clock.txt")) ?? ""
            #expect(reference.contains("│clock ▒▒▒▒▒▒▒▒     ▒│"))
            #expect(!reference.contains("10:11:12"))
            let svg = contents(of: folder.appendingPathComponent("masksAreAppliedBeforeComparingAndBeforeWriting.clock.svg")) ?? ""
            #expect(svg.contains("▒▒▒▒▒▒▒▒"))
            #expect(!svg.contains("10:11:12"))
            // A different clock and spinner still match.
            #expect(verifySnapshot(of: later, as: .screen(masks: masks), named: "clock", record: .never, snapshotDirectory: folder) == nil)
            // Without the masks they do not.
            #expect(verifySnapshot(of: later, as: .screen(), named: "clock", record: .never, snapshotDirectory: folder, artifactsDirectory: folder.appendingPathComponent("a")) != nil)
        }
    }

    @Test func theSVGRendererTakesMasksToo() throws {
        let svg = try ScreenSVG.render(screen("secret 1234"), masks: [.regex(#"\d+"#)])
        #expect(svg.contains("secret ▒▒▒▒"))
        #expect(!svg.contains("1234"))
    }
}
