import Foundation
import TestSupport
import Testing
import Harness

/// What `harness run` prints never carries a control character to the user's terminal: a
/// flow's name (any byte but `/` and NUL may be in a file name) and its failure are shown with
/// ESC as `\e` and the other C0 and C1 controls and DEL as `\u{XX}`; line breaks and tabs stay.
@Suite struct ConsoleEscapingTests {
    /// ESC [ 2 J (erase the screen), BEL, CSI as the C1 control U+009B, DEL.
    static let hostileName = "suite/red\u{1B}[2J\u{07}\u{9B}31m\u{7F}.flow"

    @Test func flowNamesAndFailuresArePrintedEscaped() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try fixture.write("app sh -c \"echo out\"\nlaunch pipes\nstdout contains \"missing\"\n", at: Self.hostileName)
        let output = try await runHarness(["run", "suite", "--jobs", "1"], in: fixture.folder)
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        let shown = "suite/red\\e[2J\\u{07}\\u{9B}31m\\u{7F}.flow"
        #expect(output.stdout.contains("✗ \(shown) ("), "\(output.stdout)")
        for (name, text) in [("stdout", output.stdout), ("stderr", output.stderr)] {
            let controls = text.unicodeScalars.filter { scalar in
                (scalar.value < 0x20 && scalar != "\n" && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
            }
            #expect(controls.isEmpty, "\(name) carries \(controls.map { String($0.value, radix: 16) }): \(text.debugDescription)")
        }
    }
}
