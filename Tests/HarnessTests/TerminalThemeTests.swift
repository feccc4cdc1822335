import Foundation
import Testing
import Harness
import HarnessCore
import TestSupport
import TerminalEmulator

/// A light or dark terminal as programs see it (docs/PROTOCOL.md, "The program's environment"):
/// the colours the emulator reports (OSC 10/11), `COLORFGBG`, and what vim makes of them.
@Suite struct TerminalThemeTests {
    /// The program's `COLORFGBG` and the background OSC 11 reports, read by the program itself.
    @Test(arguments: TerminalTheme.allCases)
    func theProgramSeesTheTheme(theme: TerminalTheme) async throws {
        var launch = AppLaunch(executable: "/bin/sh", arguments: ["-c", #"echo "COLORFGBG=$COLORFGBG"; printf '\033]11;?\007'; exec cat -v"#])
        launch.theme = theme
        launch.defaultTimeout = mustSucceedTimeout
        try await TerminalApp.with(launch) { app in
            let screen = try await app.waitFor(text: "^G")
            #expect(screen.line(0) == "COLORFGBG=\(theme.colorFGBG)")
            #expect(screen.line(1).hasPrefix(theme == .light ? "^[]11;rgb:f4f4/f4f4/f4f4^G" : "^[]11;rgb:1010/1010/1010^G"))
            #expect(screen.theme == theme)
        }
    }

    /// vim picks its Visual colour by the terminal's background: it differs between the light
    /// and the dark run (vim is installed by .ci/run).
    @Test func vimsVisualColourFollowsTheTheme() async throws {
        guard isInstalled("vim") else { return }
        var backgrounds: [TerminalTheme: CellAttributes] = [:]
        for theme in TerminalTheme.allCases {
            var launch = AppLaunch(executable: "vim", arguments: ["-N", "-u", "NONE", "-i", "NONE", "-n"])
            launch.theme = theme
            launch.size = TerminalSize(cols: 40, rows: 5)
            launch.defaultTimeout = mustSucceedTimeout
            try await TerminalApp.with(launch) { app in
                try app.type("ihello world")
                try app.press(.escape)
                try app.type("0v$")
                let screen = try await app.waitFor(text: "-- VISUAL --")
                backgrounds[theme] = screen.cell(row: 0, col: 1).attributes
                try app.press(.escape)
                try app.type(":q!\r")
            }
        }
        #expect(backgrounds[.dark] != nil && backgrounds[.dark] != backgrounds[.light],
                "dark: \(String(describing: backgrounds[.dark])), light: \(String(describing: backgrounds[.light]))")
    }
}
