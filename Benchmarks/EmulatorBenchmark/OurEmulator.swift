import Foundation
import TerminalEmulator

/// Times our emulator on a stream, fed in 4096-byte chunks as PTY reads would deliver it.
enum OurEmulator {
    /// The best time of `runs`, and how many lines scrolled off into the scrollback in a run.
    /// The terminal keeps its default scrollback (10,000 lines).
    static func bestTime(_ stream: [UInt8], cols: Int, rows: Int, runs: Int) -> (seconds: Double, scrolledOff: Int) {
        var best = Double.infinity
        var checksum = 0
        var scrolledOff = 0
        stream.withUnsafeBytes { bytes in
            for _ in 0..<runs {
                let terminal = Terminal(cols: cols, rows: rows)
                let start = DispatchTime.now().uptimeNanoseconds
                var offset = 0
                while offset < bytes.count {
                    let end = min(offset + 4096, bytes.count)
                    terminal.feed(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
                    offset = end
                }
                let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                best = min(best, elapsed)
                checksum &+= terminal.cursor.row &+ terminal.cursor.col &+ terminal.unhandledSequenceCount
                scrolledOff = terminal.scrolledOffCount
            }
        }
        if checksum == Int.min { print("") } // keeps the work observable
        return (best, scrolledOff)
    }
}
