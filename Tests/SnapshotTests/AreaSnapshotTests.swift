import Foundation
import Harness
import TerminalEmulator
import TestSupport
import Testing

/// `.screen(area:)`: a snapshot of part of the screen, so a clock outside it needs no mask.
@Suite struct AreaSnapshotTests {
    /// A header with a clock, a list between "Todos" and "q quit", a status line below.
    static func screen(clock: String, item: String = "milk") -> ScreenSnapshot {
        let terminal = Terminal(cols: 12, rows: 5)
        terminal.feed("Todos \(clock)\r\n\u{1B}[1m\(item)\u{1B}[0m\r\neggs\r\nq quit\r\nsaved \(clock)")
        return terminal.snapshot()
    }

    static let area = ScreenArea.rows(between: "Todos", and: "q quit", inclusive: false)

    @Test func theAreaIsAllTheSnapshotHolds() throws {
        let text = try SnapshotStrategy<ScreenSnapshot, String>.screen(style: true, area: Self.area).snapshot(Self.screen(clock: "12:00"))
        #expect(text == """
            ┌────────────┐
            │milk        │
            │eggs        │
            └────────────┘
            cursor: row 0, col 0, hidden
            style:
            row 0 cols 0-3: bold
            """)
    }

    @Test func aClockOutsideTheAreaDoesNotMatterAndAChangeInsideFails() throws {
        try withTemporaryDirectory { folder in
            let strategy = SnapshotStrategy<ScreenSnapshot, String>.screen(area: Self.area)
            #expect(verifySnapshot(of: Self.screen(clock: "12:00"), as: strategy, named: "list", record: .missing, snapshotDirectory: folder) != nil)
            #expect(verifySnapshot(of: Self.screen(clock: "23:59"), as: strategy, named: "list", record: .never, snapshotDirectory: folder) == nil)
            let changed = verifySnapshot(of: Self.screen(clock: "12:00", item: "milc"), as: strategy, named: "list", record: .never,
                                         snapshotDirectory: folder)
            #expect(changed?.contains("+│milc") == true)
            // Without the area, the clock does matter.
            let whole = SnapshotStrategy<ScreenSnapshot, String>.screen()
            _ = verifySnapshot(of: Self.screen(clock: "12:00"), as: whole, named: "all", record: .missing, snapshotDirectory: folder)
            #expect(verifySnapshot(of: Self.screen(clock: "23:59"), as: whole, named: "all", record: .never, snapshotDirectory: folder) != nil)
        }
    }

    @Test func masksApplyInTheWholeScreensCoordinatesFirst() throws {
        let strategy = SnapshotStrategy<ScreenSnapshot, String>.screen(
            masks: [.region(ScreenRegion(row: 2, col: 0, width: 2, height: 1), fill: "*")], area: .rows(2...2))
        #expect(try strategy.snapshot(Self.screen(clock: "12:00")).hasPrefix("┌────────────┐\n│**gs        │"))
    }

    @Test func aScreenWithoutTheAreaFailsNamingIt() throws {
        try withTemporaryDirectory { folder in
            let strategy = SnapshotStrategy<ScreenSnapshot, String>.screen(area: .rows(between: "Todos", and: "absent"))
            let message = verifySnapshot(of: Self.screen(clock: "12:00"), as: strategy, named: "x", record: .missing, snapshotDirectory: folder)
            #expect(message?.contains(#"the screen has no rows between "Todos" and "absent""#) == true, "\(message ?? "")")
        }
    }
}
