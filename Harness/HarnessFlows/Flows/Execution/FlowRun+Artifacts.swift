import Foundation
import HarnessCore
import Stubs

extension FlowRun {
    /// Writes what a failed attempt leaves under the artifacts folder, beside each other:
    /// `<flow path without .flow>.cast` (asciicast v2), `.screen.txt` (framed), `.screen.svg`, `.screen.png`,
    /// `.journal.json` (stub requests) and `.events.json` (bridge events); a pipes run has no
    /// screen and leaves `.stdout.txt` and `.stderr.txt` (as read until the failure) instead.
    /// Later attempts add `.attemptN` before the extension. Returns their paths relative to the folder.
    func writeArtifacts(failure: FlowFailure) -> FlowArtifacts {
        writeArtifacts(recordingOnly: false)
    }

    /// With `--trace on`, a passed attempt keeps its recording too: the `.cast` (or a pipes
    /// run's `.stdout.txt` and `.stderr.txt`) under the artifacts folder, named as a failed
    /// attempt's would be.
    func writeRecordingOfPassedAttempt() {
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
            let routes = Dictionary(stubServer.stubs.map { ($0.id, $0.pattern.description) }, uniquingKeysWith: { first, _ in first })
            artifacts.journal = write(Self.journalJSON(stubServer.requests, routes: routes), ".journal.json")
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

    /// The stub journal as a JSON array, one object per request.
    /// `routes` gives the route each stub matches, shown beside its id.
    static func journalJSON(_ requests: [RecordedRequest], routes: [StubID: String] = [:]) -> Data {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let entries: [JSONValue] = requests.map { request in
            var object: [String: JSONValue] = [
                "sequenceNumber": .number(Double(request.sequenceNumber)),
                "method": .string(request.method),
                "target": .string(request.target),
                "headers": .array(request.headers.map { .array([.string($0.name), .string($0.value)]) }),
                "receivedAt": .string(formatter.string(from: request.receivedAt)),
                "stub": request.stubID.map { .string($0.description) } ?? .null,
                "route": request.stubID.flatMap { routes[$0] }.map(JSONValue.string) ?? .null,
            ]
            if let text = request.bodyText {
                object["body"] = .string(text)
            } else {
                object["bodyBase64"] = .string(request.body.base64EncodedString())
            }
            return .object(object)
        }
        return prettyJSON(.array(entries))
    }

    /// Pretty-printed JSON with sorted keys and a final newline.
    static func prettyJSON(_ value: JSONValue) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(value)) ?? Data("null".utf8)) + Data("\n".utf8)
    }
}
