import Foundation
import TerminalEmulator

extension FlowRun {
    // MARK: - expect, expect-not, wait-stable

    /// `expect`: waits until a screen line shows the text or matches the regex.
    func expect(_ pattern: FlowTextPattern, within limit: Duration) async throws {
        let session = try session
        do {
            switch pattern {
            case .text(let text): try await session.waitFor(text: text, timeout: limit)
            case .regex(let regex): try await session.waitFor(regex: regex, timeout: limit)
            }
        } catch {
            throw Self.waitFailure(error, what: "the screen never showed it", limit: limit)
        }
    }

    /// `expect-not`: the screen, as it is now, does not show the text or match the regex.
    func expectNot(_ pattern: FlowTextPattern) throws {
        let screen = try session.screen
        let found: Bool
        switch pattern {
        case .text(let text):
            found = screen.showsText(text)
        case .regex(let regex):
            let expression = try NSRegularExpression(pattern: regex, options: [.anchorsMatchLines])
            found = CompiledRegex(expression).matches(screen.text)
        }
        if found { throw FlowStepFailure("the screen shows it") }
    }

    /// `wait-stable`: waits until the program wrote nothing for `quiet`.
    func waitStable(_ quiet: Duration) async throws {
        let limit = max(timeout, quiet + quiet)
        do {
            try await session.waitUntilStable(quietFor: quiet, timeout: limit)
        } catch {
            throw Self.waitFailure(error, what: "the screen kept changing", limit: limit)
        }
    }

    /// A session wait error as a step failure (the framed screen is added by the caller).
    static func waitFailure(_ error: any Error, what: String, limit: Duration) -> FlowStepFailure {
        switch error {
        case TerminalSessionError.timeout(_, _, _, let lastBytes):
            return FlowStepFailure("\(what) within \(FlowDurationParser.format(limit))",
                                   details: "Last bytes received: \(lastBytes.isEmpty ? "(none)" : lastBytes)")
        case TerminalSessionError.exitedWhileWaiting(_, let status, _):
            return FlowStepFailure("the program \(status) and its last screen does not show it")
        case let failure as FlowStepFailure:
            return failure
        default:
            return FlowStepFailure("\(error)")
        }
    }

    // MARK: - snapshot

    /// `snapshot NAME`: the screen matches the reference
    /// `__Snapshots__/<flow>/<flow>.<NAME>.txt` beside the flow file.
    ///
    /// When the reference exists, the step first waits (up to the timeout) for a screen equal
    /// to it, so a frame still being drawn does not fail the flow; without one (or in record
    /// mode `all`) it waits for the screen to be quiet for 100ms, then records it.
    func snapshot(_ name: String) async throws {
        let session = try session
        let (mode, directory, artifacts) = try snapshotSettings()
        let reference = directory.appendingPathComponent("\(SnapshotVerifier.sanitized(flow.name)).\(SnapshotVerifier.sanitized(name)).txt")
        let expected = (try? Data(contentsOf: reference)).flatMap { Diffing<String>.lines.fromData($0) }
        var screen = session.screen
        if let expected, mode != .all {
            screen = (try? await session.waitFor("the snapshot \(name)", timeout: timeout) { $0.framed() == expected }) ?? session.screen
        } else {
            screen = (try? await session.waitUntilStable(quietFor: .milliseconds(100), timeout: timeout)) ?? session.screen
        }
        if let message = verifyScreenSnapshot(
            screen, named: name, record: mode, snapshotDirectory: directory, artifactsDirectory: artifacts,
            function: flow.name
        ) {
            throw Self.snapshotFailure(message)
        }
    }

    /// The record mode, the folder of the flow's references (`__Snapshots__/<flow>` beside the
    /// flow file) and where actual snapshots go on failure: shared by screen and stream snapshots.
    func snapshotSettings() throws -> (mode: SnapshotRecordMode, directory: URL, artifacts: URL) {
        let mode: SnapshotRecordMode
        do {
            mode = try options.recordMode ?? SnapshotRecordMode.fromEnvironment(options.environment)
        } catch {
            throw FlowStepFailure("\(error)", showsScreen: false)
        }
        let directory = URL(fileURLWithPath: script.directory, isDirectory: true)
            .appendingPathComponent("__Snapshots__", isDirectory: true)
            .appendingPathComponent(flow.name, isDirectory: true)
        let artifacts = options.artifactsDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? HarnessArtifacts.directory(forTestFile: flow.path, environment: options.environment)
        return (mode, directory, artifacts)
    }

    /// A failure message of the snapshot verifier as a step failure: its first line, then the rest.
    static func snapshotFailure(_ message: String) -> FlowStepFailure {
        let lines = message.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        return FlowStepFailure(String(lines[0]), details: lines.count > 1 ? String(lines[1]) : nil, showsScreen: false)
    }

    // MARK: - exit, kill

    /// `exit CODE`: waits for the program to end with that status (signal N counts as 128+N).
    func exit(_ code: Int32) async throws {
        let session = try session
        let status: ExitStatus
        do {
            status = try await session.waitForExit(timeout: timeout)
        } catch {
            throw Self.waitFailure(error, what: "the program did not exit", limit: timeout)
        }
        let actual: Int32
        switch status {
        case .exited(let value): actual = value
        case .signaled(let signal): actual = 128 + signal
        }
        if actual != code {
            throw FlowStepFailure("the program \(status) (status \(actual)), expected status \(code)")
        }
    }
}
