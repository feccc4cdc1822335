import Foundation
import HarnessCore
import HarnessSystem

/// Runs one attempt of a parsed flow: its stub server, the app under a pseudo-terminal, then
/// every step in order, stopping at the first failure; teardown always runs.
///
/// ```swift
/// let executor = FlowExecutor(options: .init(defaultTimeout: .seconds(5), artifactsDirectory: "artifacts"))
/// let script = try FlowParser.load(flow)
/// switch await executor.run(script, flow: flow) {
/// case .passed: print("ok")
/// case .failed(let failure): print(failure)      // Tests/Flows/error.flow:7:1: expect "Oops": ...
/// case .skipped(let reason): print(reason)
/// }
/// ```
///
/// The app is launched through ``TerminalApp`` with the launch protocol the flow needs (see
/// ``launchProtocol(for:)``), its options in the environment unless the flow says
/// `carrier arguments`, so that any terminal program (`bc`, `python3 -q`, `python3 app.py`)
/// keeps the command line its `app` line writes.
public struct FlowExecutor: Sendable {
    /// How flows are run.
    public struct Options: Sendable {
        /// The default limit of waits until a flow's own `timeout` line (`harness run --timeout`).
        public var defaultTimeout: Duration
        /// The snapshot record mode; nil reads `HARNESS_RECORD` (see ``SnapshotRecordMode``).
        public var recordMode: SnapshotRecordMode?
        /// Where failed attempts leave their recording, screen, journal and events; nil: nowhere.
        public var artifactsDirectory: String?
        /// The variables `${NAME}` expands to in `app` and `env` lines, and the environment the
        /// program inherits (its `env` lines are added over it).
        public var environment: [String: String]
        /// Where attempts leave their traces for the run report; nil: no trace is recorded.
        public var traces: FlowTraceCollector?
        /// The font each attempt's recording is drawn with as an animated GIF under
        /// ``artifactsDirectory`` (`harness run --gif`); nil: no GIF.
        package var gifFont: UnifontFont?
        /// Starts the stub server of a flow with `stub` or `requests` lines, its stubs registered
        /// (the flow front end gives one: `FlowStubServers.start`); nil: such a flow fails.
        public var stubServers: (@Sendable ([FlowStub]) throws -> any FlowStubServer)?

        /// Creates options.
        public init(
            defaultTimeout: Duration = .seconds(10),
            recordMode: SnapshotRecordMode? = nil,
            artifactsDirectory: String? = nil,
            environment: [String: String] = ProcessInfo.processInfo.environment,
            traces: FlowTraceCollector? = nil,
            stubServers: (@Sendable ([FlowStub]) throws -> any FlowStubServer)? = nil
        ) {
            self.stubServers = stubServers
            self.defaultTimeout = defaultTimeout
            self.recordMode = recordMode
            self.artifactsDirectory = artifactsDirectory
            self.environment = environment
            self.traces = traces
        }
    }

    /// The options.
    public var options: Options

    /// Creates an executor.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// Runs one attempt of `script` and says how it ended.
    ///
    /// - Parameters:
    ///   - flow: the discovered file, which names artifacts; by default made from the script.
    ///   - attempt: the attempt number (1-based); artifacts of later attempts get a suffix.
    public func run(_ script: FlowScript, flow: FlowFile? = nil, attempt: Int = 1) async -> AttemptOutcome {
        let flow = flow ?? FlowFile(path: FlowPaths.join(script.directory, FlowPaths.lastComponent(of: script.file)),
                                    relativePath: script.file)
        let run = FlowRun(script: script, flow: flow, attempt: attempt, options: options)
        return await run.execute()
    }

    /// The launch protocol a flow needs, from what its commands need (the keyword table,
    /// ``FlowKeyword/Needs``): the bridge for `spy`, `event`, `call`, `probe` lines and `given`
    /// after launch, the launch options for stubs, seeds, `clock`, `set`, `given` before launch,
    /// `file` and `requests` checks, nothing otherwise.
    public static func launchProtocol(for script: FlowScript) -> LaunchProtocol {
        let needs = script.needs
        if needs.contains(.bridge) { return .bridge }
        return needs.contains(.launchOptions) ? .arguments : .none
    }
}

extension FlowPaths {
    /// The last `/`-separated component of `path`.
    package static func lastComponent(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
