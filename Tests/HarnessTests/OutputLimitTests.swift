import Foundation
import TestSupport
import Testing
import Harness
@testable import HarnessCore

/// What a session keeps of a program that prints more than its output limit: the newest
/// bytes, the count of the dropped ones, and a word in the trace; waits go on working.
@Suite struct OutputLimitTests {
    // MARK: - The log

    @Test func aBoundedLogKeepsTheNewestAndCountsTheRest() {
        var log = BoundedLog<Int>(limit: 100)
        for value in 0..<1_000 { log.append(value, weight: 10) }
        #expect(Array(log.elements) == Array(990..<1_000))
        #expect(log.keptBytes == 100 && log.droppedCount == 990 && log.droppedBytes == 9_900)
        #expect(log.endPosition == 1_000)
        #expect(log[position: 989] == nil && log[position: 990] == 990 && log[position: 999] == 999 && log[position: 1_000] == nil)
        #expect(log.clamped(3) == 990 && log.clamped(995) == 995)
        // One element heavier than the limit is kept alone.
        log.append(-1, weight: 500)
        #expect(Array(log.elements) == [-1] && log.keptBytes == 500)
    }

    /// The ring keeps exactly the last `limit` bytes, whatever the sizes of the chunks, and
    /// hands them over in order (rotated in place) without the chunks' history.
    @Test(arguments: [1, 3, 7, 10, 25])
    func aByteRingKeepsTheLastBytesInOrder(chunk: Int) {
        let ring = ByteRing(limit: 10)
        var all: [UInt8] = []
        for start in stride(from: 0, to: 57, by: chunk) {
            let bytes = (start..<min(57, start + chunk)).map { UInt8($0) }
            all += bytes
            bytes.withUnsafeBytes { ring.append($0) }
            #expect(ring.copy() == Data(all.suffix(10)))
        }
        #expect(ring.droppedBytes == 47)
        #expect(ring.take() == Data(all.suffix(10)))
        #expect(ring.count == 0 && ring.copy().isEmpty && ring.droppedBytes == 47)
    }

    @Test(arguments: [("64MiB", 64 << 20), ("512KiB", 512 << 10), ("1GiB", 1 << 30), ("65536", 65_536)])
    func limitsAreSizes(text: String, bytes: Int) throws {
        #expect(try OutputLimit.parse(text) == bytes)
    }

    @Test(arguments: ["", "lots", "64MB", "-1MiB", "1KiB", "0", "9999999999999999GiB", "６４MiB"])
    func otherTextIsRefused(text: String) {
        #expect(throws: OutputLimit.ParseError(text: text)) { try OutputLimit.parse(text) }
    }

    // MARK: - Sessions

    /// 1 MiB of `x`, then `END`.
    static let flood = "head -c 1048576 /dev/zero | tr '\\0' x; printf END"

    @Test func aPipeKeepsItsLastBytesAndCountsTheDroppedOnes() async throws {
        var configuration = PipedSession.Configuration(executable: "/bin/sh", arguments: ["-c", Self.flood])
        configuration.outputLimit = OutputLimit.minimumBytes
        configuration.environment = testEnvironment
        let output = try await PipedSession.withSession(configuration) { session in
            try await session.waitForExit(timeout: mustSucceedTimeout)
        }
        let kept = output.standardOutputData
        #expect(kept.count == OutputLimit.minimumBytes)
        #expect(output.standardOutput.hasSuffix("xxxEND"))
        #expect(output.droppedStandardOutputBytes + kept.count == 1_048_576 + 3)
        #expect(output.droppedStandardErrorBytes == 0)
    }

    @Test func aTerminalRecordingKeepsItsNewestEventsAndSaysSo() async throws {
        var configuration = shell(Self.flood + "; echo; read x")
        configuration.outputLimit = OutputLimit.minimumBytes
        let session = try TerminalSession.launch(configuration)
        defer { session.terminate() }
        // The output stream goes on: the wait finds the end of the flood.
        try await session.waitForOutput(text: "xEND")
        let recording = session.recording
        // At least the limit, at most one read (64 KiB) more.
        let keptBytes = recording.events.reduce(0) { $0 + $1.bytes.count }
        #expect(keptBytes >= OutputLimit.minimumBytes && keptBytes <= OutputLimit.minimumBytes + 64 * 1024)
        #expect(recording.droppedEventCount > 0 && recording.droppedByteCount > 0)
        #expect(String(decoding: recording.outputBytes, as: UTF8.self).contains("xEND"))
        #expect(session.notices.contains { $0.text.contains("reached the output limit") }, "\(session.notices)")
        let marker = "harness: \(recording.droppedEventCount) older events (\(recording.droppedByteCount) bytes) were dropped"
        let cast = recording.asciicast()
        #expect(cast.split(separator: "\n")[1].contains(#""m", "\#(marker)"#), "\(cast.prefix(300))")
    }
}
