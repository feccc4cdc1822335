import Foundation
import HarnessCore
import HarnessSystem

extension FlowRun {
    /// Writes what a failed attempt leaves under the artifacts folder, beside each other:
    /// `<flow path without .flow>.cast` (asciicast v2), `.screen.txt` (framed), `.screen.svg`,
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
        guard let root = options.artifactsDirectory else { return FlowArtifacts() }
        var stem = flow.relativePath.hasSuffix(".flow") ? String(flow.relativePath.dropLast(5)) : flow.relativePath
        if attempt > 1 { stem += ".attempt\(attempt)" }
        var artifacts = FlowArtifacts()
        func write(_ data: Data, _ suffix: String) -> String? {
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
        if let app {
            let session = app.session
            artifacts.cast = write(Data(session.recording.asciicast().utf8), ".cast")
            if recordingOnly { return artifacts }
            let screen = session.screen
            artifacts.screenText = write(Data((screen.framed() + "\n").utf8), ".screen.txt")
            artifacts.screenSVG = write(Data(ScreenSVG.render(screen).utf8), ".screen.svg")
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

    /// Pretty-printed JSON with sorted keys and a final newline.
    package static func prettyJSON(_ value: JSONValue) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(value)) ?? Data("null".utf8)) + Data("\n".utf8)
    }
}
