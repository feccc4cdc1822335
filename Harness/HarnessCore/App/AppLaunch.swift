import Foundation
import HarnessWire
import TerminalEmulator

/// How much of the launch-argument protocol (docs/PROTOCOL.md) a program speaks.
public enum LaunchProtocol: Sendable, Equatable {
    /// Any terminal program: nothing is added to its command line or environment.
    case none
    /// Network, storage sandbox, clock, initial state and values; no bridge.
    case arguments
    /// Everything, plus the bridge: launch waits for the app's host to say ready.
    case bridge
}

/// Everything needed to launch an app under test: the program, its terminal, and what the
/// launch protocol tells it (network, storage, clock, initial state).
///
/// ```swift
/// var launch = AppLaunch(executable: try BuildProducts.executable(named: "todo").path)
/// launch.launchProtocol = .bridge       // the app links HarnessHost: spies, probes, events
/// launch.network = stubs.baseURL
/// launch.size = TerminalSize(cols: 40, rows: 12)
/// try await TerminalApp.with(launch) { app in ... }
/// ```
public struct AppLaunch: Sendable {
    /// A path, or a name looked up in `PATH`.
    public var executable: String
    /// The program's own arguments (the protocol's come before them).
    public var arguments: [String]
    /// Variables set over everything: they win over the hermetic defaults (`TERM`, `COLORTERM`,
    /// `LANG`, see ``ProgramEnvironment``) and over inherited and launch-protocol variables.
    public var environment: [String: String]
    /// Inherited variables the app must not see (those that vary by machine, `NO_COLOR` among
    /// them, are never inherited: see ``ProgramEnvironment``).
    public var unsetEnvironment: Set<String>
    /// The environment the program inherits before it is made hermetic; nil: this process's (a
    /// flow passes its runner's).
    package var inheritedEnvironment: [String: String]?
    /// The terminal size at launch.
    public var size: TerminalSize
    /// Light or dark: the colours the terminal reports (OSC 10/11), the program's `COLORFGBG`
    /// and the palette of the screen's pictures (default dark).
    public var theme: TerminalTheme = .dark
    /// The working directory (the harness's own when nil).
    public var workingDirectory: String?
    /// The timeout of waits that do not pass one: the screen's and the output's, and the
    /// bridge's calls, probes, events and spy waits.
    public var defaultTimeout: Duration
    /// How long a synchronized frame (mode 2026) may stay held before the screen shows the
    /// update anyway (see ``TerminalSession/Configuration/synchronizedOutputLimit``; 150 ms).
    public var synchronizedOutputLimit: Duration = .milliseconds(150)
    /// The most bytes kept of each kind of output: the terminal's recording, each pipe, the
    /// bridge's events (``OutputLimit``: 64 MiB unless `HARNESS_OUTPUT_LIMIT` says otherwise).
    public var outputLimit: Int = OutputLimit.standard
    /// How much of the launch protocol the program speaks: only what the test asked for.
    ///
    /// Unless set, `.arguments` when the test gave the app a network, an initial state, a
    /// frozen clock, values or seeds, and `.none` otherwise, so any program (`bc`, `python3`)
    /// launches as it is. The bridge is never guessed: set `.bridge` to reach the app's spies,
    /// probes and events (the app must link HarnessHost).
    public var launchProtocol: LaunchProtocol {
        get { chosenLaunchProtocol ?? inferredLaunchProtocol }
        set { chosenLaunchProtocol = newValue }
    }
    private var chosenLaunchProtocol: LaunchProtocol?

    /// What ``launchProtocol`` is when the test did not set it.
    var inferredLaunchProtocol: LaunchProtocol {
        network != nil || initialState != nil || frozenClock != nil || !values.isEmpty || !seeds.isEmpty ? .arguments : .none
    }
    /// The app's network: usually a `StubServer`'s base URL.
    public var network: URL?
    /// A named state to start in (`--harness-initial-state`).
    public var initialState: String?
    /// A frozen clock for everything the app would show of the time.
    public var frozenClock: Date?
    /// Free-form key/values (`--harness-set KEY=VALUE`).
    public var values: [String: String]
    /// Files put in the storage sandbox before launch, by relative name.
    public var seeds: [String: Data]
    /// How long launch waits for the bridge's ready.
    public var readyTimeout: Duration
    /// Where the launch protocol's options go: flags after the program path (`.arguments`, the
    /// default) or environment variables (`.environment`: `HARNESS_STORAGE`..., for a script
    /// run through an interpreter, `python3 tool.py`, whose command line must stay as written).
    /// The token is in the environment either way. Inherited protocol variables are removed
    /// from the program's environment in both cases, so it never sees two carriers.
    public var carrier: LaunchCarrier
    /// Makes the program's own arguments from the launch options' values (``LaunchVariable``
    /// names: `HARNESS_NETWORK`, `HARNESS_STORAGE`, ...) once they are known, in place of
    /// ``arguments``: a flow's `app` line expands `${HARNESS_NETWORK}` with it. Nil: ``arguments``.
    package var argumentsFromLaunchValues: (@Sendable ([String: String]) throws -> [String])?

    /// A launch of `executable` with `arguments` at 80x24, passing the launch protocol only what
    /// the test sets (see ``launchProtocol``).
    public init(executable: String, arguments: [String] = []) {
        self.executable = executable
        self.arguments = arguments
        self.environment = [:]
        self.unsetEnvironment = []
        self.inheritedEnvironment = nil
        self.size = .standard
        self.workingDirectory = nil
        self.defaultTimeout = .seconds(10)
        self.chosenLaunchProtocol = nil
        self.network = nil
        self.initialState = nil
        self.frozenClock = nil
        self.values = [:]
        self.seeds = [:]
        self.readyTimeout = .seconds(10)
        self.carrier = .arguments
    }
}

// MARK: - What the program receives

extension AppLaunch {
    /// A fresh storage sandbox holding ``seeds``; nothing is left behind when seeding fails.
    func makeSandbox() throws -> Sandbox {
        let sandbox = try Sandbox(prefix: "harness-sandbox")
        do {
            for (name, data) in seeds.sorted(by: { $0.key < $1.key }) {
                try sandbox.write(data, to: name)
            }
        } catch {
            sandbox.close(failed: false)
            throw error
        }
        return sandbox
    }

    /// The launch protocol's options for a program whose storage is `sandbox`: network, clock,
    /// initial state and values from this launch.
    func launchOptions(storage sandbox: Sandbox) -> LaunchOptions {
        var options = LaunchOptions()
        options.networkBaseURL = network
        options.storageDirectory = sandbox.path
        options.frozenClock = frozenClock
        options.initialState = initialState
        options.values = values
        return options
    }

    /// The protocol's arguments: none for ``LaunchProtocol/none`` or the environment carrier,
    /// else the options' flags (with the bridge, `options` are its listener's).
    func protocolArguments(_ options: LaunchOptions) -> [String] {
        launchProtocol == .none || carrier == .environment ? [] : options.arguments
    }

    /// The program's own arguments for a launch whose options are `options` (see
    /// ``argumentsFromLaunchValues``).
    func programArguments(_ options: LaunchOptions) throws -> [String] {
        guard let make = argumentsFromLaunchValues else { return arguments }
        var values = options.environmentCarrier
        values[LaunchArgument.tokenEnvironmentVariable] = nil
        return try make(values)
    }

    /// The protocol's variables: the token with the arguments carrier, every option with the
    /// environment carrier, nothing for ``LaunchProtocol/none``.
    func protocolVariables(_ options: LaunchOptions) -> [String: String] {
        guard launchProtocol != .none else { return [:] }
        return carrier == .environment ? options.environmentCarrier : options.environment
    }

    /// The program's environment: the inherited one made hermetic for `output` (see
    /// ``ProgramEnvironment``) without its launch-protocol variables, with `protocolEnvironment`
    /// over it, without ``unsetEnvironment``, with ``environment`` over everything.
    func programEnvironment(adding protocolEnvironment: [String: String] = [:],
                            for output: ProgramEnvironment.Output) -> [String: String] {
        var result = ProgramEnvironment.hermetic(inheritedEnvironment ?? ProcessInfo.processInfo.environment, for: output, theme: theme)
        for name in LaunchVariable.all + [LaunchArgument.tokenEnvironmentVariable] { result[name] = nil }
        result.merge(protocolEnvironment) { _, new in new }
        for name in unsetEnvironment { result[name] = nil }
        result.merge(environment) { _, new in new }
        return result
    }
}
