import Foundation
import HarnessCore
import HarnessFlows

/// `harness render FILE.cast --gif OUT.gif [--png OUT.png] [--png-at SECONDS] ...`: draws an
/// asciicast v2 recording (a flow's `.cast`, asciinema's) as an animated GIF and/or the PNG of
/// its screen at a time, over GNU Unifont (``RecordingPictures``): a demo for a README from
/// any recording, with no browser.
enum RenderCommand: Command {
    static let name = "render"
    static let operands = "FILE.cast"
    static let summary = "draw an asciicast recording as an animated GIF and/or a PNG of its screen (needs GNU Unifont)"
    static let options = [
        CommandOption(name: "gif", value: "OUT.gif", summary: "writes the recording as an animated GIF"),
        CommandOption(name: "png", value: "OUT.png", summary: "writes the screen as a PNG (at the end, or at --png-at)"),
        CommandOption(name: "png-at", value: "SECONDS", summary: "the time of the PNG's screen (default: the end)"),
        CommandOption(name: "until", value: "SECONDS", summary: "draws the recording up to this time (default: its end)"),
        CommandOption(name: "until-last-key", value: nil, summary: "draws the recording up to its last key (a demo without the quit and the screen after)"),
        CommandOption(name: "max-idle", value: "SECONDS", summary: "shortens the GIF's pauses to this (default: the recording's idle_time_limit)"),
        CommandOption(name: "min-delay", value: "SECONDS", summary: "shows each GIF frame at least this long (a fast program's demo made readable)"),
        CommandOption(name: "font", value: "FILE.hex", summary: "GNU Unifont's .hex (default: \(UnifontFont.environmentVariable), else /usr/share/unifont/unifont.hex)"),
    ]

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try parse(arguments)
        guard parsed.positional.count == 1, let file = parsed.positional.first else {
            throw CommandError.usage(parsed.positional.isEmpty ? "missing FILE.cast" : "only one FILE.cast may be given")
        }
        let gifPath = parsed.value("gif"), pngPath = parsed.value("png")
        guard gifPath != nil || pngPath != nil else { throw CommandError.usage("nothing to write: give --gif OUT.gif, --png OUT.png or both") }
        let pngTime = try parsed.seconds("png-at")
        guard pngTime == nil || pngPath != nil else { throw CommandError.usage("--png-at says when the PNG is taken: it needs --png OUT.png") }
        let maximumIdle = try parsed.seconds("max-idle")
        guard maximumIdle.map({ $0 > 0 }) ?? true else { throw CommandError.usage("--max-idle must be more than 0 seconds") }
        let timing = RecordingPictures.Timing(maximumIdle: maximumIdle, minimumDelay: try parsed.seconds("min-delay") ?? 0)
        let until = try parsed.seconds("until")
        var cast: Asciicast
        let font: UnifontFont
        do {
            cast = try AsciicastReader.read(path: file)
            font = try UnifontFont.load(path: parsed.value("font"))
        } catch {
            throw CommandError.failure("\(error)")
        }
        if let until { cast.events = cast.events.filter { $0.time <= until } }
        if parsed.has("until-last-key"), let last = cast.events.lastIndex(where: { $0.kind == .input }) {
            cast.events.removeSubrange(last...)
        }
        if let gifPath {
            let gif = RecordingPictures.gif(of: cast, font: font, timing: timing)
            try write(gif.bytes, to: gifPath)
            HarnessCLI.printLine("\(gifPath): \(gif.frames) frames, \(gif.bytes.count) bytes")
        }
        if let pngPath {
            let png = RecordingPictures.png(of: cast, at: pngTime, font: font)
            try write(png, to: pngPath)
            HarnessCLI.printLine("\(pngPath): \(png.count) bytes")
        }
        return 0
    }

    private static func write(_ bytes: [UInt8], to path: String) throws(CommandError) {
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw .failure("cannot write \(path): \((error as NSError).localizedDescription)")
        }
    }
}
