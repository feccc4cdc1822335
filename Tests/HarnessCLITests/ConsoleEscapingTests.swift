import Foundation
import TestSupport
import Testing
import Harness
import HarnessFlows
@testable import HarnessCore

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

    /// What `harness swift-test` passes on from `swift test` is escaped the same way, byte by
    /// byte, however its pieces are cut: a C1 control split between two pieces included.
    @Test(arguments: [1, 2, 3, 1000])
    func aChildsOutputIsEscapedWhereverItsPiecesEnd(pieceLength: Int) {
        let output = Array("ok \u{1B}[2J\r\u{9B}31m é\u{7F}\tdone\n".utf8)
        var escaper = ConsoleByteEscaper()
        var shown: [UInt8] = []
        for start in stride(from: 0, to: output.count, by: pieceLength) {
            shown += escaper.escape(Array(output[start..<min(start + pieceLength, output.count)]))
        }
        #expect(String(decoding: shown, as: UTF8.self) == "ok \\e[2J\\r\\u{9B}31m é\\u{7F}\tdone\n")
        #expect(String(decoding: shown, as: UTF8.self) == TextEscaping.console(String(decoding: output, as: UTF8.self)))
    }
}
