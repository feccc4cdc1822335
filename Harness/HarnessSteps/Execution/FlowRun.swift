import Foundation
import HarnessCore
import HarnessSystem
import HarnessWire
import TerminalEmulator

/// One attempt at one flow: the state the steps share (app, stub server, current timeout) and
/// the loop that runs them. Used once, from one task.
package final class FlowRun {
    package let script: FlowScript
    package let flow: FlowFile
    package let attempt: Int
    package let options: FlowExecutor.Options

    /// The flow's own stub server, when it has `stub` or `requests` lines.
    package var stubServer: (any RequestJournal)?
    /// The launched app.
    package var app: TerminalApp?
    /// The app launched with pipes (`launch pipes`) instead of ``app``.
    package var pipedApp: PipedApp?
    /// The current default limit of waits (`timeout` lines change it).
    package var timeout: Duration
    /// How many events of each name `event` checks have already awaited.
    package var awaitedEvents: [String: Int] = [:]
    /// The reply to the last `call` (for a front end that shows it).
    package var lastReply: RawJSON?
    /// Records the attempt's steps for the report, when the run collects traces.
    package let trace: FlowTraceRecorder?
    /// Where `snapshot` steps keep their references.
    package let snapshotPlace: SnapshotPlace
    /// Who owns those references in the snapshot ledger: the flow, or the Swift test.
    package let snapshotOwner: SnapshotLedger.Owner
    /// The folder the run's paths are relative to (`harness run`'s current folder), which the
    /// actual snapshots' places under the artifacts folder follow: `a/__Snapshots__/login/…`
    /// and `b/__Snapshots__/login/…` for two flows named `login`. Nil for a Swift test (its
    /// package decides) or a flow named by a path outside that folder.
    package let snapshotMirrorRoot: URL?
    /// The steps this run executes, in order (a flow's lines, or a Swift test's steps).
    private(set) var steps: [EngineStep] = []
    /// Whether each step is recorded in the app's session journal (a Swift test whose trace is
    /// its `with`'s timeline), and when the current step began.
    package var journalsSteps = false
    package var stepStart: Date?
    /// The index in ``steps`` of the step that ended the run, when one failed or skipped.
    private(set) var failedIndex: Int?
    /// Whether ``tearDown(failed:)`` ends the app and the stub server: true when this run
    /// started them (a flow), false when a Swift test owns them.
    package let ownsResources: Bool

    package init(script: FlowScript, flow: FlowFile, attempt: Int, options: FlowExecutor.Options) {
        self.script = script
        self.flow = flow
        self.attempt = attempt
        self.options = options
        self.timeout = options.defaultTimeout
        self.trace = options.traces == nil ? nil : FlowTraceRecorder()
        self.snapshotPlace = SnapshotPlace(
            filePath: "\(#filePath)", function: flow.name,
            directory: URL(fileURLWithPath: script.directory, isDirectory: true)
                .appendingPathComponent("__Snapshots__", isDirectory: true)
                .appendingPathComponent(flow.name, isDirectory: true))
        self.snapshotOwner = SnapshotLedger.Owner(file: flow.path, function: flow.name, label: flow.relativePath)
        self.snapshotMirrorRoot = flow.runFolder.map { URL(fileURLWithPath: $0, isDirectory: true) }
        self.steps = script.steps.map(EngineStep.init)
        self.ownsResources = true
    }

    /// A run of a Swift test's steps on the app (or piped app) the test launched, and the stub
    /// server it started, if any; the test keeps owning them.
    package init(swiftTest: SnapshotPlace, name: String, steps: [EngineStep], app: TerminalApp?, pipedApp: PipedApp?,
         stubServer: (any RequestJournal)?, options: FlowExecutor.Options) {
        let directory = URL(fileURLWithPath: swiftTest.filePath).deletingLastPathComponent().path
        self.script = FlowScript(file: swiftTest.filePath, directory: directory, steps: [])
        self.flow = FlowFile(path: swiftTest.filePath, relativePath: name)
        self.attempt = 1
        self.options = options
        self.timeout = app?.session.configuration.defaultTimeout ?? pipedApp?.session.configuration.defaultTimeout ?? options.defaultTimeout
        self.trace = options.traces == nil ? nil : FlowTraceRecorder()
        self.snapshotPlace = swiftTest
        self.snapshotOwner = SnapshotLedger.Owner(
            file: swiftTest.filePath, function: SnapshotVerifier.testName(of: swiftTest.function), label: name)
        self.snapshotMirrorRoot = nil
        self.steps = steps
        self.app = app
        self.pipedApp = pipedApp
        self.stubServer = stubServer
        self.ownsResources = false
    }

    /// The running session (after `launch`).
    package var session: TerminalSession {
        get throws(FlowStepFailure) {
            guard let app else { throw FlowStepFailure("the app is not running (no launch yet)", showsScreen: false) }
            return app.session
        }
    }

    // MARK: - Running

    /// Runs every step, then tears everything down; never throws.
    package func execute() async -> AttemptOutcome {
        // The waits and inputs a step makes are the step's: the session's journal records the
        // step (when it records anything), not them.
        await TraceSwitch.$isInsideStep.withValue(true) { await executeSteps() }
    }

    private func executeSteps() async -> AttemptOutcome {
        var outcome = AttemptOutcome.passed
        var current: EngineStep?
        do {
            for (index, step) in steps.enumerated() {
                current = step
                failedIndex = index
                traceStepBegan()
                try Task.checkCancellation()
                try await perform(step)
                traceStepPassed(step)
            }
            failedIndex = nil
        } catch let skip as FlowSkip {
            traceStepFailed(current, skip)
            outcome = .skipped(reason: skip.reason)
        } catch {
            traceStepFailed(current, error)
            // The run was cancelled (SIGINT, SIGTERM): the step did not fail, it was cut short.
            if error is CancellationError || Task.isCancelled {
                outcome = .interrupted(failure(CancellationError(), at: current))
            } else {
                outcome = .failed(failure(error, at: current))
            }
        }
        if case .failed(var failure) = outcome, options.artifactsDirectory != nil {
            failure.artifacts = writeArtifacts(failure: failure)
            outcome = .failed(failure)
        }
        if case .interrupted(var interruption) = outcome, options.artifactsDirectory != nil {
            interruption.artifacts = writeArtifacts(failure: interruption)
            outcome = .interrupted(interruption)
        }
        if case .passed = outcome, options.artifactsDirectory != nil { writeRecordingOfPassedAttempt() }
        writeAnimation()
        finishTrace(outcome)
        if ownsResources {
            if case .failed = outcome { await tearDown(failed: true) } else { await tearDown(failed: false) }
        }
        return outcome
    }

    /// The failure of `step`: its text, what went wrong, and the screen.
    package func failure(_ error: any Error, at step: EngineStep?) -> FlowFailure {
        let stepFailure: FlowStepFailure
        switch error {
        case let failure as FlowStepFailure: stepFailure = failure
        case is CancellationError: stepFailure = FlowStepFailure("cancelled", showsScreen: false)
        default: stepFailure = FlowStepFailure("\(error)")
        }
        var lines: [String] = []
        let command = step?.text ?? "flow"
        lines.append("\(command): \(stepFailure.problem)")
        if let details = stepFailure.details, !details.isEmpty { lines.append(details) }
        lines += unmatchedRequestLines
        if stepFailure.showsScreen, let app {
            lines += Self.screenLines(checked: stepFailure.checkedScreen, now: app.session.screen.framed())
            lines += Self.lastAlternateScreenLines(of: app.session)
        }
        return FlowFailure(message: lines.joined(separator: "\n"), position: step?.position)
    }

    // MARK: - Steps

    /// Runs one step.
    package func perform(_ step: EngineStep) async throws {
        switch step.body {
        case .command(let command):
            try await perform(command)
        case .snapshot(let name, let area, let masks, let style):
            try await snapshot(name, area: area, masks: masks, style: style)
        case .screen(let predicate):
            try await expect(step.text, where: predicate)
        case .perform(let body):
            let app = try runningApp
            do {
                try await body(app)
            } catch let error as TerminalSessionError {
                throw Self.waitFailure(error)
            } catch {
                throw FlowStepFailure("\(error)")
            }
        case .check(let body):
            let app = try runningApp
            let problem: String?
            do {
                problem = try await body(app)
            } catch let error as TerminalSessionError {
                throw Self.waitFailure(error)
            } catch {
                throw FlowStepFailure("\(error)")
            }
            if let problem { throw FlowStepFailure(problem) }
        }
    }

    /// The app in a terminal (a Swift closure step needs one).
    package var runningApp: TerminalApp {
        get throws(FlowStepFailure) {
            guard let app else { throw FlowStepFailure("the app is not running (no launch yet)", showsScreen: false) }
            return app
        }
    }

    /// Runs one command.
    package func perform(_ command: FlowCommand) async throws {
        switch command {
        case .app, .env, .size, .clock, .stub, .seed, .set, .carrier, .tag, .matrix:
            break  // read by `launch`
        case .timeout(let duration):
            timeout = duration
        case .launch:
            try await launch()
        case .type(let text):
            try await input { try $0.type(text) }
        case .press(let keys):
            try await input { try $0.press(keys) }
        case .paste(let text):
            try await input { try $0.paste(text) }
        case .resize(let size):
            try await input { try await $0.resize(cols: size.cols, rows: size.rows) }
        case .click(let target):
            try await input { try $0.click(target) }
        case .doubleClick(let target):
            try await input { try $0.doubleClick(target) }
        case .drag(let from, let to):
            try await input { try $0.drag(from: from, to: to) }
        case .scroll(let direction, let count, let target):
            try await input { try $0.scroll(direction, count: count, at: target) }
        case .hover(let target):
            try await input { try $0.hover(target) }
        case .focus(let change):
            try await input { try $0.focus(change) }
        case .expect(let pattern, let within, let area, let style):
            try await expect(pattern, within: within ?? timeout, area: area, style: style)
        case .expectNot(let pattern, let area, let style, let during):
            if let during { try await expectNot(pattern, area: area, style: style, for: during) } else {
                try expectNot(pattern, area: area, style: style)
            }
        case .expectGone(let pattern, let area, let within):
            try await expectGone(pattern, area: area, within: within ?? timeout)
        case .expectOutput(let pattern, let within):
            try await expectOutput(pattern, within: within ?? timeout)
        case .expectOutputNot(let pattern):
            try expectOutputNot(pattern)
        case .waitStable(let quiet, let area):
            if let area { try await waitStable(quiet, in: area) } else { try await waitStable(quiet) }
        case .snapshot(let name, let area):
            try await snapshot(name, area: area)
        case .snapshotTranscript(let name):
            try await snapshotTranscript(name)
        case .spyCount(let name, let count):
            try await spyCount(name, count)
        case .spyLast(let name, let file):
            try await spyLast(name, file)
        case .eventSequence(let name, let values):
            try await eventSequence(name, values)
        case .fileExists(let name):
            try fileExists(name)
        case .fileMissing(let name):
            try fileMissing(name)
        case .fileEquals(let name, let file):
            try fileEquals(name, file)
        case .requestCount(let method, let path, let count):
            try await requestCount(method, path, count)
        case .expectRequest(let expected):
            try await expectRequest(expected)
        case .include:
            break  // replaced by the included lines when the flow is parsed
        case .exit(let code):
            if pipedApp != nil { try await pipedExit(code) } else { try await exit(code) }
        case .expectCommand(let within):
            try await expectCommand(within: within ?? timeout)
        case .commandStatus(let status):
            try commandStatus(status)
        case .expectTitle(let pattern, let within):
            try await expect(.title, pattern, within: within ?? timeout)
        case .expectClipboard(let pattern, let within):
            try await expect(.clipboard, pattern, within: within ?? timeout)
        case .call(let name, let params, let expected):
            try await call(name, params: params, expected: expected)
        case .probe(let name, let expected):
            try await call(name, params: nil, expected: expected, isProbe: true)
        case .given(let given):
            if app != nil || pipedApp != nil { try await callGiven(given) }  // before launch: the initial state
        case .kill:
            if let pipedApp { pipedApp.session.terminate() } else { try session.terminate() }
        // Runs without a terminal (pipes)
        case .stdin:
            break  // read by `launch pipes`
        case .launchPipes:
            try await launchPipes()
        case .streamCheck(let stream, let check):
            try await checkStream(stream, check)
        }
    }

    /// Sends input, turning session errors into step failures.
    private func input(_ body: (TerminalSession) async throws -> Void) async throws {
        let session = try session
        do {
            try await body(session)
        } catch {
            if let status = session.exitStatus {
                throw FlowStepFailure("the program already \(status)")
            }
            if let mouse = error as? MouseError {
                throw FlowStepFailure(mouse.summary)  // the failure shows the screen itself
            }
            throw FlowStepFailure("\(error)")
        }
    }
}
