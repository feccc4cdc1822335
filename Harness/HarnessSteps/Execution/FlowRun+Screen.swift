import Foundation
import HarnessCore
import TerminalEmulator

extension FlowRun {
    // MARK: - expect, expect-not, wait-stable

    /// `expect`: waits until a screen line shows the text or matches the regex (inside `area`,
    /// with `style` in every cell, when given).
    package func expect(_ pattern: FlowTextPattern, within limit: Duration, area: ScreenArea?, style: TextStyle?) async throws {
        guard area != nil || style != nil else {
            return try await wait(for: pattern, within: limit, onOutput: false)
        }
        let session = try session
        let target: StyledTextQuery.Target
        switch pattern {
        case .text(let text): target = .text(text)
        case .regex(let regex): target = try .regex(compiling: regex)
        }
        let query = StyledTextQuery(target, area: area, style: style)
        do {
            try await session.waitFor(query, timeout: limit, location: SourceCodeLocation())
        } catch {
            throw Self.waitFailure(error)
        }
    }

    /// Waits on the screen or (`onOutput`) on the output after the cursor.
    private func wait(for pattern: FlowTextPattern, within limit: Duration, onOutput: Bool) async throws {
        let session = try session
        do {
            switch (pattern, onOutput) {
            case (.text(let text), false): try await session.waitFor(text: text, timeout: limit)
            case (.regex(let regex), false): try await session.waitFor(regex: regex, timeout: limit)
            case (.text(let text), true): try await session.waitForOutput(text: text, timeout: limit)
            case (.regex(let regex), true): try await session.waitForOutput(regex: regex, timeout: limit)
            }
        } catch {
            throw Self.waitFailure(error, output: onOutput)
        }
    }

    /// `expect-not`: the screen, as it is now, does not show the text or match the regex
    /// (inside `area`, with `style` in every cell, when given).
    package func expectNot(_ pattern: FlowTextPattern, area: ScreenArea? = nil, style: TextStyle? = nil) throws {
        let screen = try session.screen
        guard try Self.screenShows(pattern, area: area, style: style, deciding: timeout)(screen) else { return }
        throw FlowStepFailure("the screen shows it" + (area.map { " in \($0)" } ?? "") + (style.map { " styled \($0)" } ?? ""))
    }

    /// `wait-stable`: waits until the program wrote nothing for `quiet`.
    package func waitStable(_ quiet: Duration) async throws {
        let limit = max(timeout, quiet + quiet)
        do {
            try await session.waitUntilStable(quietFor: quiet, timeout: limit)
        } catch {
            throw Self.waitFailure(error)
        }
    }

    // MARK: - expect-output, expect-output-not

    /// `expect-output`: waits until the program prints the text or a match of the regex after
    /// the output cursor, and moves the cursor past it.
    package func expectOutput(_ pattern: FlowTextPattern, within limit: Duration) async throws {
        try await wait(for: pattern, within: limit, onOutput: true)
    }

    /// `expect-output-not`: nothing printed after the output cursor shows the text or matches
    /// the regex (checked at once; the cursor does not move).
    package func expectOutputNot(_ pattern: FlowTextPattern) throws {
        let output = try session.outputAfterCursor
        let found: String?
        switch pattern {
        case .text(let text):
            found = output.contains(text) ? text : nil
        case .regex(let regex):
            // Matched until the step's timeout: a pattern that backtracks past it fails the
            // check, since what was printed could not be ruled out.
            let compiled = try CompiledRegex(lines: regex).within(timeout)
            guard let shown = compiled.decides(output) else {
                throw FlowStepFailure("matching /\(regex)/ against the output did not end within \(FlowDurationParser.format(timeout)) "
                                      + "(the pattern backtracks), so a match could not be ruled out", showsScreen: false)
            }
            found = shown ? compiled.expression.firstMatch(in: output, range: NSRange(output.startIndex..., in: output))
                .flatMap { Range($0.range, in: output) }.map { String(output[$0]) } : nil
        }
        if let found {
            throw FlowStepFailure("the program printed \(found.debugDescription) since the last output match",
                                  details: "Output since the last output match:\n\(Self.excerpt(of: output, around: found))",
                                  showsScreen: false)
        }
    }

    /// The lines of `output` around the first occurrence of `found`, a few of them.
    package static func excerpt(of output: String, around found: String) -> String {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        let hit = lines.firstIndex { $0.contains(found) } ?? 0
        let shown = lines[max(0, hit - 3)..<min(lines.count, hit + 4)]
        return (hit > 3 ? "…\n" : "") + shown.joined(separator: "\n") + (hit + 4 < lines.count ? "\n…" : "")
    }

    /// A session wait error as a step failure: the Swift wait's first line (the same message
    /// in both front ends), the near miss's further lines, then, with `output`, what was printed
    /// after the output cursor (what the wait could have matched), else the last bytes received.
    /// The framed screen is added by the caller.
    package static func waitFailure(_ error: any Error, output: Bool = false) -> FlowStepFailure {
        switch error {
        case TerminalSessionError.timeout(let failure):
            let received = output
                ? "Output since the last output match:\n\(failure.output)"
                : "Last bytes received: \(failure.lastBytes.isEmpty ? "(none)" : failure.lastBytes)"
            return FlowStepFailure(failure.timeoutHeadline, details: [failure.nearMissDetails, received].compactMap { $0 }.joined(separator: "\n"),
                                   checkedScreen: failure.screen.framed())
        case TerminalSessionError.exitedWhileWaiting(let failure, let status):
            let printed = output ? "Output since the last output match:\n\(failure.output)" : nil
            let details = [failure.nearMissDetails, printed].compactMap { $0 }
            return FlowStepFailure(failure.exitHeadline(status), details: details.isEmpty ? nil : details.joined(separator: "\n"))
        case let failure as FlowStepFailure:
            return failure
        default:
            return FlowStepFailure("\(error)")
        }
    }

    /// The screen lines of a failure message: the screen the wait last checked (`checked`,
    /// when the failure is a wait's timeout) and, when the screen changed since, the screen now
    /// second, said to be newer; else the screen now.
    package static func screenLines(checked: String?, now: String) -> [String] {
        guard let checked else { return ["Screen:", now] }
        guard checked != now else { return ["Screen:", checked] }
        return ["Screen (the last one the wait checked):", checked,
                "Output arrived after the deadline; the screen now:", now]
    }

    // MARK: - snapshot

    /// `snapshot NAME`: the screen matches the reference
    /// `__Snapshots__/<flow>/<flow>.<NAME>.txt` beside the flow file (for a Swift test:
    /// `__Snapshots__/<TestFile>/<test>.<NAME>.txt` beside the test file).
    ///
    /// When the reference exists, the step first waits (up to the timeout) for a screen equal
    /// to it, so a frame still being drawn does not fail the step; without one (or in record
    /// mode `all`) it waits for the screen to be quiet for 100ms, then records it.
    /// With `area`, only the part of the screen it covers is compared (`.screen(area:)`); the
    /// step waits for the area to be on the screen and equal to the reference. `masks` and
    /// `style` are those of the `.screen(masks:style:)` strategy.
    package func snapshot(_ name: String, area: ScreenArea? = nil, masks: [SnapshotMask] = [], style: Bool = false) async throws {
        guard area != nil || !masks.isEmpty || style else {
            return try await snapshot(name, as: .framedScreen) { $0.framed() }
        }
        let strategy = SnapshotStrategy<ScreenSnapshot, String>.screen(masks: masks, style: style, area: area)
        try await snapshot(name, as: strategy) { screen in
            (try? SnapshotStrategy<ScreenSnapshot, String>.screen(masks: masks, style: style, area: area).snapshot(screen)) ?? ""
        }
    }

    /// `snapshot-transcript NAME`: the transcript (scrollback, then the screen) matches the
    /// reference, with the same files, waits and record modes as `snapshot`.
    package func snapshotTranscript(_ name: String) async throws {
        try await snapshot(name, as: .transcript) { $0.framedTranscript() }
    }

    /// `render` is the strategy's text (what the step waits for when a reference exists).
    private func snapshot(
        _ name: String, as strategy: SnapshotStrategy<ScreenSnapshot, String>,
        render: @escaping @Sendable (ScreenSnapshot) -> String
    ) async throws {
        let session = try session
        let (mode, artifacts) = try snapshotSettings()
        // Each matrix case has its own reference: `loaded-40x12-light-nocolor`.
        let name = flow.matrixCase?.snapshotName(name) ?? name
        let verifier = SnapshotVerifier(
            filePath: snapshotPlace.filePath, function: snapshotPlace.function, name: name, record: mode,
            snapshotDirectory: snapshotPlace.directory, artifactsDirectory: artifacts, owner: snapshotOwner,
            mirrorRoot: snapshotMirrorRoot
        )
        let expected = verifier.referenceURL(pathExtension: strategy.pathExtension)
            .flatMap { try? Data(contentsOf: $0) }
            .flatMap { SnapshotDiffing<String>.lines.fromData($0) }
        var screen = session.screen
        var settled = false
        if let expected, mode != .all {
            (screen, settled) = await snapshotScreen(session, name: name, expected: expected, render: render)
        } else {
            screen = (try? await session.waitUntilStable(quietFor: .milliseconds(100), timeout: timeout)) ?? session.screen
        }
        if let message = verifier.verify(screen, as: strategy) {
            var failure = Self.snapshotFailure(message)
            if settled {
                if failure.problem.hasSuffix(".") { failure.problem.removeLast() }
                failure.problem += " (the screen had settled: \(Self.settledMeaning))"
            }
            throw failure
        }
    }

    /// The record mode and where actual snapshots go on failure: shared by screen and stream
    /// snapshots.
    package func snapshotSettings() throws -> (mode: SnapshotRecordMode, artifacts: URL) {
        let mode: SnapshotRecordMode
        do {
            mode = try options.recordMode ?? SnapshotRecordMode.fromEnvironment(options.environment)
        } catch {
            throw FlowStepFailure("\(error)", showsScreen: false)
        }
        let artifacts = options.artifactsDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? HarnessArtifacts.directory(forTestFile: flow.path, environment: options.environment)
        return (mode, artifacts)
    }

    /// Waits until the screen satisfies `predicate` (a Swift test's `.screen` expectation).
    package func expect(_ description: String, where predicate: @escaping @Sendable (ScreenSnapshot) -> Bool) async throws {
        let session = try session
        do {
            _ = try await session.waitFor(description, timeout: timeout, where: predicate)
        } catch {
            throw Self.waitFailure(error)
        }
    }

    /// A failure message of the snapshot verifier as a step failure: its first line, then the rest.
    package static func snapshotFailure(_ message: String) -> FlowStepFailure {
        let lines = message.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        return FlowStepFailure(String(lines[0]), details: lines.count > 1 ? String(lines[1]) : nil, showsScreen: false)
    }

    // MARK: - exit, kill

    /// `exit CODE`: waits for the program to end with that status (signal N counts as 128+N).
    package func exit(_ code: Int32) async throws {
        let session = try session
        let status: ExitStatus
        do {
            status = try await session.waitForExit(timeout: timeout)
        } catch {
            throw Self.waitFailure(error)
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
