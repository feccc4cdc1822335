import Foundation
import HarnessCore
import HarnessSystem

extension FlowRun {
    /// Writes what a failed attempt leaves under the artifacts folder, beside each other:
    /// `<flow path without .flow>.cast` (asciicast v2), `.screen.txt` (framed), `.screen.svg`, `.screen.png`,
    /// `.journal.json` (stub requests) and `.events.json` (bridge events); a pipes run has no
    /// screen and leaves `.stdout.txt` and `.stderr.txt` (as read until the failure) instead.
    /// Later attempts add `.attemptN` before the extension. Returns their paths relative to the folder.
    package func writeArtifacts(failure: FlowFailure) -> FlowArtifacts {
        writeArtifacts(recordingOnly: false)
    }

    /// With `--trace on`, a passed attempt keeps its recording too: the `.cast` (or a pipes
    /// run's `.stdout.txt` and `.stderr.txt`) under the artifacts folder, named as a failed
    /// attempt's would be.
    package func writeRecordingOfPassedAttempt() {
        guard options.traces?.mode == .on else { return }
        _ = writeArtifacts(recordingOnly: true)
    }

    /// The files of ``writeArtifacts(failure:)``; only the recording when `recordingOnly`.
    private func writeArtifacts(recordingOnly: Bool) -> FlowArtifacts {
        guard options.artifactsDirectory != nil else { return FlowArtifacts() }
        var artifacts = FlowArtifacts()
        if let app {
            let session = app.session
            artifacts.cast = write(Data(session.recording.asciicast().utf8), ".cast")
            if recordingOnly { return artifacts }
            let screen = session.screen
            artifacts.screenText = write(Data((screen.framed() + "\n").utf8), ".screen.txt")
            artifacts.screenSVG = write(Data(ScreenSVG.render(screen).utf8), ".screen.svg")
            artifacts.screenPNG = ScreenPNG.failurePicture(of: screen).flatMap { write(Data($0), ".screen.png") }
        }
        if let pipedApp {
            artifacts.stdout = write(pipedApp.session.standardOutputSoFar, ".stdout.txt")
            artifacts.stderr = write(pipedApp.session.standardErrorSoFar, ".stderr.txt")
            if recordingOnly { return artifacts }
        }
        if recordingOnly { return artifacts }
        if let stubServer {
            artifacts.journal = write(stubServer.journalJSON(), ".journal.json")
        }
        if let events = eventsJSON() {
            artifacts.events = write(events, ".events.json")
        }
        return artifacts
    }

    /// With `harness run --gif`, writes the attempt's recording as an animated GIF,
    /// `<flow path without .flow>.gif` under the artifacts folder (`.attemptN.gif` after the
    /// first), each frame shown at least a quarter of a second (``RecordingPictures/Timing/flowRun``).
    func writeAnimation() {
        guard let font = options.gifFont, let app else { return }
        let palette = TerminalPalette(theme: app.session.screen.theme)
        _ = write(Data(RecordingPictures.gif(of: app.session.recording.asciicastRecording, font: font, palette: palette, timing: .flowRun).bytes), ".gif")
    }

    /// Writes `data` to `<flow path without .flow>[.attemptN]<suffix>` under the artifacts
    /// folder; returns that path relative to the folder, or nil when it could not be written.
    private func write(_ data: Data, _ suffix: String) -> String? {
        guard let root = options.artifactsDirectory else { return nil }
        var stem = flow.decorated(flow.relativePath.hasSuffix(".flow") ? String(flow.relativePath.dropLast(5)) : flow.relativePath)
        if attempt > 1 { stem += ".attempt\(attempt)" }
        let relative = stem + suffix
        let url = URL(fileURLWithPath: FlowPaths.join(root, relative))
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
            return relative
        } catch {
            return nil
        }
    }

    /// Pretty-printed JSON with sorted keys and a final newline.
    package static func prettyJSON(_ value: JSONValue) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(value)) ?? Data("null".utf8)) + Data("\n".utf8)
    }
}
