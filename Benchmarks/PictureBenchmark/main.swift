// How long a 60-second recording takes to become a GIF, and how big it is, beside the GIFs vhs
// (charmbracelet/vhs, the terminal-demo GIF maker) publishes for its own examples.
//
//   swift build -c release --product PictureBenchmark
//   .build/release/PictureBenchmark [--runs N]
//
// Two synthetic recordings of 60 s at 80x24 (no program is run, so the figures are the
// drawing and encoding alone): "typing", a shell session typed at vhs's default 50 ms a key
// with colored output every few seconds; "pager", a full screen of text scrolled by a line
// every 40 ms (a frame each: our 25 a second at most). vhs cannot run here (it drives a
// headless browser through ttyd and ffmpeg, in real time, so a 60 s tape takes at least
// 60 s); its figures are the sizes of the example GIFs in its repository (Git LFS pointers,
// commit 6f0c046, 2026-03-22) over the length of their tapes, computed from the tapes'
// Type, Sleep and key commands at its default 50 ms a key. Its frames are 1200x600 pixels of
// antialiased text at 50 fps; ours 640x384 of bitmap text: bytes per second per megapixel is
// printed too, and neither ratio is a like-for-like contest.
import Foundation
import HarnessCore
import HarnessSystem

var runs = 3
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    if argument == "--runs", let value = arguments.popFirst().flatMap(Int.init), value > 0 { runs = value } else {
        FileHandle.standardError.write(Data("usage: PictureBenchmark [--runs N]\n".utf8))
        exit(64)
    }
}

let font: UnifontFont
do { font = try UnifontFont.load() } catch {
    FileHandle.standardError.write(Data("PictureBenchmark: \(error)\n".utf8))
    exit(1)
}

/// A shell session: a prompt, a command typed at 50 ms a key, colored output, 2 s of reading.
func typingRecording(seconds: Double) -> Asciicast {
    var events: [AsciicastEvent] = []
    var time = 0.0
    let commands = ["ls -l Sources", "git log --oneline -5", "swift build", "cat Package.swift | head", "harness run Tests/Flows"]
    var round = 0
    while time < seconds {
        events.append(AsciicastEvent(time: time, kind: .output, data: "\u{1B}[32muser@host\u{1B}[0m:\u{1B}[34m~/project\u{1B}[0m$ "))
        for character in commands[round % commands.count] {
            time += 0.05
            events.append(AsciicastEvent(time: time, kind: .output, data: String(character)))
        }
        time += 0.5
        var output = "\r\n"
        for line in 0..<8 { output += "\u{1B}[3\(1 + (line + round) % 6)m\(round)-\(line)\u{1B}[0m  some output of the command, line \(line)\r\n" }
        events.append(AsciicastEvent(time: time, kind: .output, data: output))
        time += 2
        round += 1
    }
    return Asciicast(header: AsciicastHeader(width: 80, height: 24), events: events)
}

/// A pager: the full screen redrawn every 40 ms, one line further down a long text each time.
func pagerRecording(seconds: Double) -> Asciicast {
    var events: [AsciicastEvent] = []
    var time = 0.0, top = 0
    while time < seconds {
        var screen = "\u{1B}[H"
        for row in 0..<23 {
            let line = top + row
            screen += "\u{1B}[\(line % 7 == 0 ? "1;36" : "0")m\(line): the quick brown fox jumps over the lazy dog, paragraph \(line / 10)\u{1B}[0m\u{1B}[K\r\n"
        }
        screen += "\u{1B}[7m line \(top) \u{1B}[0m\u{1B}[K"
        events.append(AsciicastEvent(time: time, kind: .output, data: screen))
        time += 0.04
        top += 1
    }
    return Asciicast(header: AsciicastHeader(width: 80, height: 24), events: events)
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

/// vhs's published example GIFs: bytes, tape seconds, pixels.
let vhs: [(name: String, kind: String, bytes: Int, seconds: Double, width: Int, height: Int)] = [
    ("examples/demo.gif", "typing", 25_403, 6.65, 1200, 600),        // 22 keys + Sleep 0.5 + Enter + Sleep 5
    ("examples/neofetch/neofetch.gif", "typing", 140_587, 13.75, 1300, 650),  // 70 keys at 75 ms + Sleeps 8.5
    ("examples/gum/pager.gif", "pager", 6_519_894, 8.25, 1200, 600),  // 48 keys + 90 scrolls at 15 ms + Sleeps 4.5 (Padding 32)
]

print("60 s recordings at 80x24 drawn as GIF (640x384 pixels), median of \(runs) runs; vhs's published GIFs beside them")
print("recording  frames       bytes  seconds (CPU)  KB/s of recording  KB/s per megapixel | vhs GIF (tape s, pixels)                 KB/s  KB/s/MP | ratio KB/s  ratio KB/s/MP")
for (kind, cast) in [("typing", typingRecording(seconds: 60)), ("pager", pagerRecording(seconds: 60))] {
    var times: [Double] = [], cpuTimes: [Double] = []
    var result: (bytes: [UInt8], frames: Int) = ([], 0)
    for _ in 0..<runs {
        let start = Date(), cpuStart = ProcessCPUClock.nanoseconds()
        result = RecordingPictures.gif(of: cast, font: font)
        times.append(Date().timeIntervalSince(start))
        cpuTimes.append(Double(ProcessCPUClock.nanoseconds() - cpuStart) / 1e9)
    }
    let perSecond = Double(result.bytes.count) / 1000 / cast.duration
    let megapixels = Double(640 * 384) / 1_000_000
    for peer in vhs where peer.kind == kind {
        let peerPerSecond = Double(peer.bytes) / 1000 / peer.seconds
        let peerMegapixels = Double(peer.width * peer.height) / 1_000_000
        print(String(format: "%-9@ %7d %11d %6.2f (%5.2f) %18.1f %19.1f | %-28@ (%5.2f s, %dx%d) %7.1f %8.1f | %9.2fx %13.2fx",
                     kind, result.frames, result.bytes.count, median(times), median(cpuTimes), perSecond, perSecond / megapixels,
                     peer.name, peer.seconds, peer.width, peer.height, peerPerSecond, peerPerSecond / peerMegapixels,
                     perSecond / peerPerSecond, (perSecond / megapixels) / (peerPerSecond / peerMegapixels)))
    }
}

let last = RecordingPictures.screen(of: typingRecording(seconds: 60))
var pngTimes: [Double] = []
var png: [UInt8] = []
for _ in 0..<runs {
    let start = ProcessCPUClock.nanoseconds()
    png = (try? ScreenPNG.render(last, font: font)) ?? []
    pngTimes.append(Double(ProcessCPUClock.nanoseconds() - start) / 1e9)
}
print(String(format: "the last screen (80x24) as PNG: %d bytes, %.4f s of CPU", png.count, median(pngTimes)))
