import Foundation
import HarnessSystem
import TerminalEmulator

/// What a test did with a terminal session, in order, for its trace: each wait (what it waited
/// for, where it was written, when, how it ended, the screen after it) and each input.
///
/// Every session has one, empty unless its test is traced (``enable()``: an app launched in a
/// traced test), so an untraced session pays nothing and keeps no screens. The step engine records its own steps here instead
/// of the waits it makes for them, so a test that mixes steps and direct waits gets one timeline.
package final class SessionJournal: Sendable {
    /// One thing the test did.
    public struct Entry: Sendable {
        /// What it was (`wait for text "Loading…"`, `type "q"`, `expect "Oops"`).
        public var text: String
        /// Where it was written (a wait's or a step's call site), when known.
        public var file: String?
        /// Its 1-based line, when known.
        public var line: Int?
        /// When it began and ended.
        public var start: Date
        public var end: Date
        /// What went wrong, when it failed.
        public var problem: String?
        /// The screen after it.
        public var screen: ScreenSnapshot?

        package init(text: String, file: String?, line: Int?, start: Date, end: Date, problem: String?, screen: ScreenSnapshot?) {
            (self.text, self.file, self.line, self.start, self.end, self.problem, self.screen) =
                (text, file, line, start, end, problem, screen)
        }
    }

    private let entries = Locked<[Entry]>([])
    /// Whether this session's test is traced, and the stub servers its steps named.
    private let state = Locked<(enabled: Bool, servers: [any RequestJournal])>((false, []))

    package init() {}

    /// Turns recording on for this session (its test is traced).
    package func enable() { state.withLock { $0.enabled = true } }

    /// Whether this session's test is traced.
    package var isEnabled: Bool { state.withLock { $0.enabled } }

    /// Notes a stub server whose requests belong in the trace (once each).
    package func note(stubServer: any RequestJournal) {
        state.withLock { state in
            if !state.servers.contains(where: { $0 === stubServer }) { state.servers.append(stubServer) }
        }
    }

    /// The stub servers noted, in order.
    package var stubServers: [any RequestJournal] { state.withLock { $0.servers } }

    /// Records an entry when the session is traced and the step engine is not running a step;
    /// the entry (and its screen) is only made then.
    package func record(_ entry: @autoclosure () -> Entry) {
        guard !TraceSwitch.isInsideStep, isEnabled else { return }
        let entry = entry()
        entries.withLock { $0.append(entry) }
    }

    /// Records a step of the engine (recorded even while muted).
    package func recordStep(_ entry: Entry) {
        entries.withLock { $0.append(entry) }
    }

    /// Everything recorded so far, in order.
    public var all: [Entry] { entries.withLock { $0 } }
}

extension TerminalSessionError {
    /// One line for a timeline: what happened, without the screen (the trace shows it).
    var summary: String {
        switch self {
        case .timeout(let failure):
            "timed out after \(TerminalSessionError.format(failure.limit)) waiting for \(failure.awaitedAndMiss)"
        case .exitedWhileWaiting(let failure, let status):
            "the program \(status) while waiting for \(failure.awaitedAndMiss)"
        default:
            description.split(separator: "\n").first.map(String.init) ?? description
        }
    }
}

extension TerminalDriving {
    /// What the test did with this session so far: its waits and inputs, and the steps the step
    /// engine ran, in order (for the test's trace).
    package var journal: SessionJournal { core.journal }
}
