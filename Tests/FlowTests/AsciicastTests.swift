import Foundation
import TestSupport
import Testing
import Harness
@testable import HarnessCore
@testable import HarnessFlows
@testable import HarnessSteps

@Suite struct AsciicastTests {
    @Test func writerOutputIsValidNDJSONAndRoundTrips() throws {
        var recorder = AsciicastRecorder(width: 80, height: 24, timestamp: Date(timeIntervalSince1970: 1_700_000_000), title: "todo \"app\"")
        recorder.output(Array("\u{1B}[2J\u{1B}[HHello \"you\"\\\r\n\t\u{7}".utf8), at: 0.001)
        recorder.input("q", at: 0.5)
        recorder.resize(columns: 100, rows: 30, at: 0.75)
        recorder.marker("step 3", at: 0.8)
        recorder.output(Array("Bye é 😀".utf8), at: 1.25)
        let cast = recorder.finish()
        let text = AsciicastWriter.encode(cast)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 6)
        #expect(text.hasSuffix("\n"))
        // Every line is JSON on its own.
        for line in lines { _ = try JSONSerialization.jsonObject(with: Data(line.utf8)) }
        let header = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(header["version"] as? Int == 2 && header["width"] as? Int == 80 && header["height"] as? Int == 24)
        #expect(header["timestamp"] as? Int == 1_700_000_000)
        #expect(lines[1].hasPrefix("[0.001000, \"o\", "))
        let read = try AsciicastReader.parse(text)
        #expect(read == cast)
        #expect(read.events.map(\.kind) == [.output, .input, .resize, .marker, .output])
        #expect(read.header.title == "todo \"app\"")
        #expect(read.header.env["TERM"] == "xterm-256color")
        #expect(read.duration == 1.25)
    }

    @Test func utf8SplitAcrossChunksIsNotBroken() throws {
        let smile = Array("😀".utf8)   // 4 bytes
        let accent = Array("é".utf8)   // 2 bytes
        let chunks = [
            AsciicastOutputChunk(time: 0.1, bytes: Array("a".utf8) + smile.prefix(1)),
            AsciicastOutputChunk(time: 0.2, bytes: Array(smile[1..<3])),
            AsciicastOutputChunk(time: 0.3, bytes: Array(smile[3...]) + accent.prefix(1)),
            AsciicastOutputChunk(time: 0.4, bytes: Array(accent.suffix(1)) + [0xFF]),
            AsciicastOutputChunk(time: 0.5, bytes: [0xE2, 0x82]),   // unfinished at the end
        ]
        let cast = AsciicastWriter.cast(chunks: chunks, width: 10, height: 2)
        #expect(cast.events.map(\.data) == ["a", "😀", "é\u{FFFD}", "\u{FFFD}"])
        #expect(cast.events.map(\.time) == [0.1, 0.3, 0.4, 0.5])
        #expect(cast.events.map(\.data).joined() == "a😀é\u{FFFD}\u{FFFD}")
    }

    @Test(arguments: [([UInt8](), 0), ([0x41], 0), ([0xC3], 1), ([0xC3, 0xA9], 0), ([0xF0, 0x9F], 2), ([0xF0, 0x9F, 0x98], 3),
                      ([0xF0, 0x9F, 0x98, 0x80], 0), ([0x80, 0x80, 0x80], 0), ([0xFF], 0)])
    func incompleteSuffix(bytes: [UInt8], expected: Int) {
        #expect(AsciicastRecorder.incompleteSuffixLength(bytes) == expected)
    }

    @Test func replayUpToATime() throws {
        let cast = try AsciicastReader.parse("""
        {"version": 2, "width": 20, "height": 5}
        [0.1, "o", "one "]
        [0.2, "o", "two "]
        [0.3, "i", "x"]
        [0.4, "r", "30x6"]
        [0.5, "o", "three"]
        [0.6, "m", "mark"]
        """)
        #expect(cast.outputBytes() == Array("one two three".utf8))
        #expect(cast.outputBytes(upTo: 0.2) == Array("one two ".utf8))
        #expect(cast.outputBytes(upTo: 0.05).isEmpty)
        #expect(cast.replaySteps(upTo: 0.45) == [.output(Array("one two ".utf8)), .resize(TerminalSize(cols: 30, rows: 6))])
        #expect(cast.size(at: 0.3) == TerminalSize(cols: 20, rows: 5))
        #expect(cast.size() == TerminalSize(cols: 30, rows: 6))
    }

    static let badCasts: [(String, String)] = [
        ("", "<cast>: empty file"),
        ("not json", "<cast>:1: invalid asciicast v2 header: the first line is not a JSON object"),
        (#"{"version": 1, "width": 80, "height": 24, "stdout": []}"#, "<cast>:1: invalid asciicast v2 header: version 1 is not supported"),
        (#"{"width": 80, "height": 24}"#, #"<cast>:1: invalid asciicast v2 header: no "version" number"#),
        (#"{"version": 2, "width": 0, "height": 24}"#, #"<cast>:1: invalid asciicast v2 header: "width" and "height""#),
        (#"{"version": 2, "width": 1000000, "height": 1000000}"#,
         "<cast>:1: invalid asciicast v2 header: the terminal 1000000x1000000 is too large"),
        (#"{"version": 2, "width": 80, "height": 4097}"#, "<cast>:1: invalid asciicast v2 header: the terminal 80x4097 is too large"),
        (#"{"version": 2, "width": 80, "height": 24}"# + "\n[0.1, \"o\"]", "<cast>:2: invalid event: an event is a JSON array"),
        (#"{"version": 2, "width": 80, "height": 24}"# + "\n\n[0.1, \"o\", \"a\"]\n{}", "<cast>:4: invalid event: an event is a JSON array"),
        (#"{"version": 2, "width": 80, "height": 24}"# + "\n[\"0.1\", \"o\", \"a\"]", "<cast>:2: invalid event"),
        (#"{"version": 2, "width": 80, "height": 24}"# + "\n[-1, \"o\", \"a\"]", "<cast>:2: invalid event: the time must be"),
        (#"{"version": 2, "width": 80, "height": 24}"# + "\n[1, \"x\", \"a\"]", #"<cast>:2: invalid event: unknown code "x""#),
        (#"{"version": 2, "width": 80, "height": 24}"# + "\n[1, \"r\", \"big\"]", #"<cast>:2: invalid event: a resize's data must be COLSxROWS"#),
        (#"{"version": 2, "width": 80, "height": 24}"# + "\n[2, \"o\", \"a\"]\n[1, \"o\", \"b\"]", "<cast>:3: invalid event: time 1.0 is before"),
        (#"{"version": 2, "width": 80, "height": 24}"# + "\n[1, \"o\", \"a\", 4]", "<cast>:2: invalid event"),
    ]

    @Test(arguments: badCasts)
    func readerErrorsNameTheLine(text: String, expected: String) {
        do {
            _ = try AsciicastReader.parse(text)
            Issue.record("expected an error for \(text)")
        } catch {
            #expect(error.description.hasPrefix(expected), "got \(error)")
        }
    }

    @Test func readsAndWritesFiles() throws {
        let folder = try TemporaryDirectory(prefix: "flowtests").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cast = AsciicastWriter.cast(chunks: [AsciicastOutputChunk(time: 0, bytes: Array("hi".utf8))], width: 4, height: 1)
        try AsciicastWriter.write(cast, to: folder + "/s.cast")
        #expect(try AsciicastReader.read(path: folder + "/s.cast") == cast)
        #expect(throws: AsciicastReadError.self) { try AsciicastReader.read(path: folder + "/missing.cast") }
    }

    @Test func readsAnAsciinemaStyleFile() throws {
        let text = """
        {"version": 2, "width": 213, "height": 58, "timestamp": 1598283425, "idle_time_limit": 2.5, "env": {"SHELL": "/bin/zsh", "TERM": "xterm-256color"}, "theme": {"fg": "#d0d0d0"}}
        [0.248848, "o", "\\u001b[1;31mHello \\u001b[32mWorld!\\u001b[0m\\n"]
        [1.001376, "o", "That was ok\\rThis is better."]
        """
        let cast = try AsciicastReader.parse(text)
        #expect(cast.header.idleTimeLimit == 2.5 && cast.header.env["SHELL"] == "/bin/zsh")
        #expect(cast.events.first?.data == "\u{1B}[1;31mHello \u{1B}[32mWorld!\u{1B}[0m\n")
    }
}
