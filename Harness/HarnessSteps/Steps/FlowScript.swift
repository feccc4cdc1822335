import Foundation
import HarnessCore
import HarnessWire
/// A parsed and checked `.flow` file: its steps in order, plus the setup they declare.
///
/// Produced by ``FlowParser``; a script that exists has passed every check, so an executor can
/// run it without re-validating: exactly one `app`, exactly one `launch` after it, setup commands
/// (`app`, `env`, `size`, `stub`, `seed`) only before `launch`, interaction only after.
public struct FlowScript: Sendable, Equatable {
    /// The file as shown in messages (usually relative to the run root).
    public var file: String
    /// The directory holding the flow file (absolute when the parser was given one).
    public var directory: String
    /// Every command, in order.
    public var steps: [FlowStep]

    /// The program to launch.
    public var app: FlowApp? {
        for step in steps { if case .app(let app) = step.command { return app } }
        return nil
    }

    /// The `env` variables, in order.
    public var environment: [(name: String, value: String)] {
        steps.compactMap { step in
            if case .env(let name, let value) = step.command { return (name, value) }
            return nil
        }
    }

    /// The frozen clock (`clock`), if any.
    public var frozenClock: Date? {
        for step in steps { if case .clock(let date) = step.command { return date } }
        return nil
    }

    /// The size at launch (`size`), or 80x24.
    public var initialSize: TerminalSize {
        for step in steps { if case .size(let size) = step.command { return size } }
        return TerminalSize(cols: 80, rows: 24)
    }

    /// The stub routes, in order.
    public var stubs: [FlowStub] {
        steps.compactMap { step in
            if case .stub(let stub) = step.command { return stub }
            return nil
        }
    }

    /// The seeded files, in order.
    public var seeds: [(file: FlowFileReference, name: String)] {
        steps.compactMap { step in
            if case .seed(let file, let name) = step.command { return (file, name) }
            return nil
        }
    }

    /// The index of `launch` (or `launch pipes`) in ``steps``.
    public var launchIndex: Int? { steps.firstIndex { $0.command == .launch || $0.command == .launchPipes } }

    /// The steps after `launch` (interaction, waits, checks, and any `timeout`), in order.
    public var stepsAfterLaunch: ArraySlice<FlowStep> {
        guard let index = launchIndex else { return [] }
        return steps[(index + 1)...]
    }

    /// What the flow's commands need, together (the keyword table's needs, which the parser
    /// that made the script adds up; `given` needs the launch options before `launch` and the
    /// bridge after it).
    public var needs: FlowKeyword.Needs = []

    /// Creates a script; the parser makes them, with the needs of the keyword table.
    package init(file: String, directory: String, steps: [FlowStep], needs: FlowKeyword.Needs = []) {
        (self.file, self.directory, self.steps, self.needs) = (file, directory, steps, needs)
    }

    /// Whether the flow uses the stub server (any `stub` or `requests` line).
    public var usesStubServer: Bool { needs.contains(.stubServer) }

    /// Whether the flow needs the bridge (any `spy`, `event`, `call` or `probe` line, or a
    /// `given` after `launch`).
    public var usesBridge: Bool { needs.contains(.bridge) }

    /// The initial state (`given NAME` before `launch`), if any.
    public var initialState: String? {
        for step in steps[..<(launchIndex ?? steps.count)] {
            if case .given(.name(let name)) = step.command { return name }
        }
        return nil
    }

    /// The launch values (`set KEY=VALUE`).
    public var launchValues: [String: String] {
        var values: [String: String] = [:]
        for step in steps { if case .set(let key, let value) = step.command { values[key] = value } }
        return values
    }

    /// Where the launch options go (`carrier`): the environment unless the flow says otherwise.
    public var carrier: LaunchCarrier {
        for step in steps { if case .carrier(let carrier) = step.command { return carrier } }
        return .environment
    }

    /// The tags (`tag` lines), in order, each once.
    public var tags: [String] {
        var seen = Set<String>()
        return steps.flatMap { step -> [String] in
            if case .tag(let names) = step.command { return names }
            return []
        }.filter { seen.insert($0).inserted }
    }

    /// The flow's own matrix (its `matrix` lines, a later axis over an earlier one).
    public var matrix: FlowMatrix {
        steps.reduce(FlowMatrix()) { matrix, step in
            if case .matrix(let more) = step.command { return matrix.merging(more) }
            return matrix
        }
    }

    // MARK: - Runs without a terminal (pipes)

    /// Whether the program is launched with pipes (`launch pipes`) rather than in a terminal.
    public var launchesWithPipes: Bool {
        steps.contains { $0.command == .launchPipes }
    }

    /// The `stdin` line of a pipes run, if any (without one the program reads end of file at once).
    public var standardInput: FlowStandardInput? {
        for step in steps { if case .stdin(let input) = step.command { return input } }
        return nil
    }
}
