import Foundation
import TestSupport
import Testing
import Harness
@testable import HarnessCore

/// "Last bytes received" in a timeout starts at a boundary: never inside an escape sequence or
/// a UTF-8 character that the excerpt cut.
@Suite struct LastBytesBoundaryTests {
    @Test func theLastBytesOfATimeoutStartAfterASequenceTheExcerptCut() async throws {
        // 300 zeros, a colour sequence, 195 zeros: the last 200 bytes begin inside the sequence.
        let session = try TerminalSession.launch(shell("printf '%0300d\\033[38;2;255;0;0m%0195d' 0 0; read x"))
        defer { session.terminate() }
        try await session.waitFor(text: String(repeating: "0", count: 80))
        try await session.waitFor(regex: "^0{15}$")
        let error = await caughtError { try await session.waitFor(text: "absent", timeout: .milliseconds(150)) }
        guard case TerminalSessionError.timeout(let failure)? = error else {
            Issue.record("expected a timeout, got \(String(describing: error))")
            return
        }
        #expect(failure.lastBytes == String(repeating: "0", count: 195))
    }

    @Test(arguments: [
        // (bytes, limit, what the excerpt is)
        (Array("abc".utf8), 10, "abc"),
        (Array("xxxxx\u{1B}[1mhello".utf8), 7, "hello"),            // cut inside CSI
        (Array("xx\u{1B}]0;a title\u{07}tail".utf8), 8, "tail"),      // cut inside OSC ended by BEL
        (Array("xx\u{1B}]8;;http://x\u{1B}\\link".utf8), 6, "link"),  // cut inside OSC ended by ST
        (Array("aé€b".utf8), 3, "b"),                                 // cut inside a UTF-8 character
        (Array("abcdef".utf8), 3, "def"),
    ])
    func theExcerptStartsAtABoundary(bytes: [UInt8], limit: Int, expected: String) {
        #expect(String(decoding: PrintableBytes.lastAtBoundary(bytes, limit: limit), as: UTF8.self) == expected)
    }
}
