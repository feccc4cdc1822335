// Keystroke-to-screen latency of a TerminalSession against a raw pty echo round trip, on the
// same program: `stty raw -echo; exec cat` (every byte typed comes straight back).
//
//   swift build -c release --product LatencyBenchmark && .build/release/LatencyBenchmark [keys]

import Foundation
import HarnessCore
import HarnessSystem
import Synchronization
import TerminalEmulator

let keyCount = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 2000
let warmUp = 200
let script = "stty raw -echo; printf 'ready\\r\\n'; exec cat"
let alphabet = Array("abcdefghijklmnopqrstuvwxyz")

/// Median and 99th percentile of nanosecond samples, in microseconds.
func summary(_ samples: [UInt64]) -> (median: Double, p99: Double) {
    let sorted = samples.sorted()
    let median = Double(sorted[sorted.count / 2]) / 1000
    let p99 = Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]) / 1000
    return (median, p99)
}

/// Types characters into a session, one at a time, timing each from the write until the
/// wait for it to be on the screen resumes.
final class SessionEcho {
    let session: TerminalSession
    private var row = 1  // after "ready\r\n" the cursor is on row 1
    private var col = 0
    private var index = 0
    /// When the event loop last handed a chunk to `onOutput`: it has read it from the pty and
    /// fed it to the emulator, and is about to resume the waits it satisfies.
    let lastFed = Locked<UInt64>(0)
    /// When the wait's check (on the loop) last found the echo: the continuation is resumed next.
    let lastSatisfied = Locked<UInt64>(0)
    /// One key's round trip and, when its echo came in one chunk, where it went: write until
    /// read and fed on the loop, from there until the wait's check on the loop found the echo,
    /// and from there until the task resumed on a thread of the pool.
    struct Sample {
        var elapsed: UInt64
        var split: (readAndFed: UInt64, checked: UInt64, handedOver: UInt64)?
    }

    init() async throws {
        var configuration = TerminalSession.Configuration(executable: "/bin/sh", arguments: ["-c", script])
        let lastFed = self.lastFed
        configuration.onOutput = { _ in
            let now = MonotonicClock.nanoseconds()
            lastFed.withLock { $0 = now }
        }
        session = try TerminalSession.launch(configuration)
        try await session.waitFor(text: "ready")
    }

    func roundTrip() async throws -> Sample {
        let text = String(alphabet[index % alphabet.count])
        let (expectedRow, expectedCol) = (row, col)
        index += 1
        let start = monotonicNanoseconds()
        try session.type(text)
        let lastSatisfied = self.lastSatisfied
        try await session.waitFor("echo of key \(index)") { screen in
            let shown = screen.cell(row: expectedRow, col: expectedCol).character == text && screen.cursor.col == expectedCol + 1
            if shown { lastSatisfied.withLock { $0 = MonotonicClock.nanoseconds() } }
            return shown
        }
        let end = monotonicNanoseconds()
        let elapsed = end - start
        let fed = lastFed.withLock { $0 }
        let satisfied = lastSatisfied.withLock { $0 }
        var sample = Sample(elapsed: elapsed)
        if fed > start && fed <= satisfied && satisfied <= end {
            sample.split = (fed - start, satisfied - fed, end - satisfied)
        }
        col += 1
        if col == 60 {
            // Start a fresh line (not timed).
            let targetRow = min(row + 1, session.size.rows - 1)
            try session.type("\r\n")
            try await session.waitFor("new line") { $0.cursor.row == targetRow && $0.cursor.col == 0 && $0.line(targetRow).isEmpty }
            row = targetRow
            col = 0
        }
        return sample
    }
}

/// How a wait reaches the loop: waking it at once for its admission, as the session does by
/// default, or admitted on the loop's next wake-up (the echo's: one wake-up a key instead of
/// two), for comparison (`EventLoop.defersWakeUps`).
enum Admission: CaseIterable {
    case wakingTheLoop, onTheEchosWakeUp

    var title: String {
        switch self {
        case .wakingTheLoop: return "TerminalSession (type + waitFor)"
        case .onTheEchosWakeUp: return "the same, admitted on the echo's wake-up"
        }
    }
}

/// The samples of one kind of round trip, and the loop's wake-ups during them.
struct Samples {
    var elapsed: [UInt64] = []
    var readAndFed: [UInt64] = []
    var checked: [UInt64] = []
    var handedOver: [UInt64] = []
    var wakeUps: UInt64 = 0

    mutating func add(_ sample: SessionEcho.Sample) {
        elapsed.append(sample.elapsed)
        guard let split = sample.split else { return }
        readAndFed.append(split.readAndFed)
        checked.append(split.checked)
        handedOver.append(split.handedOver)
    }
}

// All run at once and alternate in blocks, so load from other processes hits them alike.
let raw = try RawPseudoTerminalEcho(script: script)
try raw.readUntil("ready")
let ours = try await SessionEcho()
var alphabetIndex = 0
for _ in 0..<warmUp {
    _ = try raw.roundTrip(alphabet[alphabetIndex % alphabet.count].asciiValue!)
    alphabetIndex += 1
    _ = try await ours.roundTrip()
}
var rawSamples: [UInt64] = []
var samples = [Admission: Samples]()
let block = 100
while rawSamples.count < keyCount {
    let count = min(block, keyCount - rawSamples.count)
    for _ in 0..<count {
        rawSamples.append(try raw.roundTrip(alphabet[alphabetIndex % alphabet.count].asciiValue!))
        alphabetIndex += 1
    }
    for admission in Admission.allCases {
        EventLoop.shared.defersWakeUps.store(admission == .onTheEchosWakeUp, ordering: .relaxed)
        let wakeUpsBefore = EventLoop.shared.wakeUps.load(ordering: .relaxed)
        for _ in 0..<count { samples[admission, default: Samples()].add(try await ours.roundTrip()) }
        samples[admission, default: Samples()].wakeUps += EventLoop.shared.wakeUps.load(ordering: .relaxed) - wakeUpsBefore
    }
}
EventLoop.shared.defersWakeUps.store(false, ordering: .relaxed)
raw.close()
ours.session.terminate()

// What one screen snapshot of the emulator costs (taken once per output chunk while a wait is pending).
let terminal = Terminal(cols: 80, rows: 24)
for line in 0..<30 { terminal.feed("line \(line) with some text on it\r\n") }
var snapshotSamples: [UInt64] = []
for _ in 0..<1000 {
    terminal.feed([0x61])
    let start = monotonicNanoseconds()
    _ = terminal.snapshot()
    snapshotSamples.append(monotonicNanoseconds() - start)
}

let rawSummary = summary(rawSamples)
let snapshotSummary = summary(snapshotSamples)
func format(_ value: Double) -> String { String(format: "%8.1f", value) }
func pad(_ text: String) -> String { text.padding(toLength: 46, withPad: " ", startingAt: 0) }
print("Keystroke-to-screen latency, \(keyCount) keys each (after \(warmUp) warm-up), program: sh -c \"\(script)\"")
print(pad("") + "median (µs)   p99 (µs)")
print(pad("raw pty echo round trip") + "\(format(rawSummary.median))   \(format(rawSummary.p99))")
for admission in Admission.allCases {
    let kind = samples[admission]!
    let ourSummary = summary(kind.elapsed)
    print(pad(admission.title) + "\(format(ourSummary.median))   \(format(ourSummary.p99))")
    print(pad("  ratio (ours / raw)") + String(format: "%8.2fx   %8.2fx", ourSummary.median / rawSummary.median, ourSummary.p99 / rawSummary.p99))
    // Where a round trip of ours goes (the keys whose echo came in one chunk): from the write
    // until the loop has read the echo and fed it to the emulator, then until the wait's check
    // on the loop found it, then until the waiting task resumed (the continuation resumed on the
    // loop, the task scheduled on a thread of the pool).
    for (title, values) in [
        ("  of which: write -> read and fed on the loop", kind.readAndFed),
        ("  of which: fed -> wait's check on the loop", kind.checked),
        ("  of which: check -> waiting task resumed", kind.handedOver),
    ] where !values.isEmpty {
        let part = summary(values)
        print(pad(title) + "\(format(part.median))   \(format(part.p99))")
    }
    print(pad("  the loop's wake-ups per key") + String(format: "%8.2f", Double(kind.wakeUps) / Double(kind.elapsed.count)))
}
print(pad("Terminal.snapshot() 80x24") + "\(format(snapshotSummary.median))   \(format(snapshotSummary.p99))")
