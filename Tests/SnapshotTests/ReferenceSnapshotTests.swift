import Harness
import TerminalEmulator
import Testing

/// Real references in the default place, `__Snapshots__/ReferenceSnapshotTests/`, committed to
/// show the layout: framed text, style layer and the SVG picture beside it.
@Suite struct ReferenceSnapshotTests {
    @Test func colourfulScreen() {
        assertSnapshot(of: ScreenFixtures.colourful(), as: .screen(style: true), named: "styled")
        assertSnapshot(of: ScreenFixtures.colourful(), as: .screen(), named: "framed")
    }

    @Test func maskedClock() {
        let terminal = Terminal(cols: 32, rows: 4)
        terminal.feed("\u{1B}[7m Todo \u{1B}[0m  synced at 09:41:27\r\n\r\n\u{1B}[32m✔\u{1B}[0m milk\r\n\u{1B}[2m⠋ loading (pid 81234)\u{1B}[0m")
        assertSnapshot(
            of: terminal.snapshot(),
            as: .screen(
                masks: [.regex(#"\d\d:\d\d:\d\d"#), .regex(#"pid \d+"#), .region(ScreenRegion(row: 3, col: 0, width: 1, height: 1))],
                style: true),
            named: "clock"
        )
    }

    @Test func settingsAsJSON() {
        struct Settings: Encodable { var theme = "dark"; var sizes = [80, 24]; var colors = true }
        assertSnapshot(of: Settings(), as: .json)
    }
}
