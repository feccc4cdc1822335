import Foundation
import Testing
import Harness
@testable import HarnessCore

@Suite struct TerminalRecordingTests {
    @Test func asciicastHasAHeaderAndOneLinePerEvent() throws {
        let recording = TerminalRecording(
            size: TerminalSize(cols: 100, rows: 30), startDate: Date(timeIntervalSince1970: 1_700_000_000),
            term: "xterm-256color",
            events: [
                .init(time: 0.5, kind: .output, bytes: Array("\u{1b}[1mhi\"\\\r\n".utf8)),
                .init(time: 0.75, kind: .input, bytes: [0x03]),
                .init(time: 1, kind: .resize, bytes: Array("120x40".utf8)),
            ])
        let lines = recording.asciicast().split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        let header = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(header["version"] as? Int == 2)
        #expect(header["width"] as? Int == 100)
        #expect(header["height"] as? Int == 30)
        #expect(header["timestamp"] as? Int == 1_700_000_000)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [Any])
        #expect(first[0] as? Double == 0.5)
        #expect(first[1] as? String == "o")
        #expect(first[2] as? String == "\u{1b}[1mhi\"\\\r\n")
        #expect(lines[2] == "[0.750000, \"i\", \"\\u0003\"]")
        #expect(lines[3] == "[1.000000, \"r\", \"120x40\"]")
    }

    @Test func aCharacterSplitAcrossChunksIsCarriedToTheNextEvent() throws {
        let bytes = Array("世界".utf8)  // 6 bytes
        let recording = TerminalRecording(size: .standard, events: [
            .init(time: 0, kind: .output, bytes: Array(bytes[0..<2])),
            .init(time: 1, kind: .output, bytes: Array(bytes[2..<4])),
            .init(time: 2, kind: .output, bytes: Array(bytes[4...])),
        ])
        let lines = recording.asciicast().split(separator: "\n").map(String.init)
        #expect(lines.count == 3)  // the first chunk alone holds no complete character
        #expect(lines[1] == "[1.000000, \"o\", \"世\"]")
        #expect(lines[2] == "[2.000000, \"o\", \"界\"]")
    }

    @Test func printableBytesEscapesControlsAndKeepsText() {
        #expect(PrintableBytes.escape(Array("\u{1b}[1mé\r\n\t\\".utf8) + [0x00, 0xff]) == "\\e[1mé\\r\\n\\t\\\\\\x00\\xFF")
    }

    @Test func outputTailKeepsTheLastBytes() {
        var tail = OutputTail(capacity: 8)
        let data = Array(0..<20 as Range<UInt8>)
        data[0..<5].withUnsafeBytes { tail.append($0) }
        #expect(tail.last(100) == [0, 1, 2, 3, 4])
        data[5...].withUnsafeBytes { tail.append($0) }
        #expect(tail.last(100) == Array(12..<20))
        #expect(tail.last(3) == [17, 18, 19])
    }
}
