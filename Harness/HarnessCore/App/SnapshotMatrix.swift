import Foundation
import HarnessWire
import TerminalEmulator

/// Sample states x terminal sizes x themes x color modes: one auto-named screen snapshot per case.
///
/// Declare the samples once and pass ``cases`` to a parameterized Swift Testing test; each
/// case launches the app at its size and color mode, brings it to its sample state (a launch
/// initial state or a bridge `given` call), waits for the sample's ready text, and snapshots
/// the screen as `<test>.<Sample>-<cols>x<rows>-<color|nocolor>.txt` (plus the SVG), with
/// `-light` before the color mode in the light theme (``TerminalTheme``).
///
/// ```swift
/// static let matrix = SnapshotMatrix(
///     samples: [.init("Idle", initialState: "idle", readyText: "[ Start ]"),
///               .init("Error", given: #""error""#, readyText: "Oops")],
///     sizes: [TerminalSize(cols: 80, rows: 24), TerminalSize(cols: 40, rows: 12)]
/// )
///
/// @Test(arguments: matrix.cases)
/// func screens(_ sample: SnapshotMatrix.Case) async throws {
///     try await sample.assertSnapshot(launching: launch)
/// }
/// ```
public struct SnapshotMatrix: Sendable {
    /// How a sample state is reached.
    public enum Setup: Sendable, Hashable {
        /// Launch with `--harness-initial-state NAME`.
        case initialState(String)
        /// After launch, call the bridge handler `given` (or another) with these JSON parameters.
        case call(String, json: String)
    }

    /// One state of the app worth a picture.
    public struct Sample: Sendable, Hashable {
        /// The name in snapshot file names (`Loaded`).
        public var name: String
        /// How the app is brought to it.
        public var setup: Setup
        /// Text the screen shows once the state is drawn.
        public var readyText: String

        /// A sample reached through a launch initial state.
        public init(_ name: String, initialState: String, readyText: String) {
            self.name = name
            self.setup = .initialState(initialState)
            self.readyText = readyText
        }

        /// A sample reached through the bridge's `given` handler (or `handler`).
        public init(_ name: String, given json: String, handler: String = "given", readyText: String) {
            self.name = name
            self.setup = .call(handler, json: json)
            self.readyText = readyText
        }
    }

    /// Whether the app may use color (`swift test` itself sets `NO_COLOR`: color mode unsets it).
    public enum ColorMode: Sendable, Hashable, CaseIterable {
        /// The app's default: color.
        case color
        /// `NO_COLOR=1`.
        case nocolor

        /// `color` or `nocolor`, as snapshot names spell it.
        package var name: String { self == .color ? "color" : "nocolor" }
    }

    /// One picture: a sample at a size in a theme and a color mode.
    public struct Case: Sendable, Hashable, CustomStringConvertible {
        /// The state.
        public var sample: Sample
        /// The terminal size.
        public var size: TerminalSize
        /// The terminal's theme (dark unless the matrix names themes).
        public var theme: TerminalTheme = .dark
        /// The color mode.
        public var colorMode: ColorMode

        /// The snapshot name: `Loaded-80x24-color`, `Loaded-80x24-light-color`.
        public var name: String {
            "\(sample.name)-\(size.cols)x\(size.rows)-" + (theme == .dark ? "" : "\(theme)-") + colorMode.name
        }
        public var description: String { name }

        /// `launch` adjusted to this case: size, theme, color mode, initial state.
        package func applied(to launch: AppLaunch) -> AppLaunch {
            var launch = launch
            launch.size = size
            launch.theme = theme
            launch.allowColor(colorMode == .color)
            switch sample.setup {
            case .initialState(let name): launch.initialState = name
            case .call: launch.launchProtocol = .bridge  // the call goes through the bridge
            }
            return launch
        }

        /// Launches the app for this case, brings it to the sample state and returns its screen.
        public func screen(launching launch: AppLaunch) async throws -> ScreenSnapshot {
            try await TerminalApp.with(applied(to: launch)) { app in
                if case .call(let handler, let json) = sample.setup {
                    _ = try await app.bridge.callRaw(handler, params: try RawJSON(validating: Data(json.utf8)))
                }
                _ = try await app.session.waitFor(text: sample.readyText)
                return try await app.session.waitUntilStable(quietFor: .milliseconds(30))
            }
        }
    }

    /// The samples.
    public var samples: [Sample]
    /// The sizes (default 80x24, 40x12, 132x43).
    public var sizes: [TerminalSize]
    /// The themes (default dark only).
    public var themes: [TerminalTheme]
    /// The color modes (default both).
    public var colorModes: [ColorMode]

    /// A matrix of every sample at every size in every theme and color mode.
    public init(
        samples: [Sample],
        sizes: [TerminalSize] = [TerminalSize(cols: 80, rows: 24), TerminalSize(cols: 40, rows: 12), TerminalSize(cols: 132, rows: 43)],
        themes: [TerminalTheme] = [.dark],
        colorModes: [ColorMode] = ColorMode.allCases
    ) {
        self.samples = samples
        self.sizes = sizes
        self.themes = themes
        self.colorModes = colorModes
    }

    /// Every case, in a stable order (sample, size, theme, color mode).
    public var cases: [Case] {
        samples.flatMap { sample in
            sizes.flatMap { size in
                themes.flatMap { theme in colorModes.map { Case(sample: sample, size: size, theme: theme, colorMode: $0) } }
            }
        }
    }
}

extension AppLaunch {
    /// Colour on (`NO_COLOR` unset, also when inherited) or off (`NO_COLOR=1`).
    package mutating func allowColor(_ allowed: Bool) {
        if allowed {
            environment["NO_COLOR"] = nil
            unsetEnvironment.insert("NO_COLOR")
        } else {
            environment["NO_COLOR"] = "1"
            unsetEnvironment.remove("NO_COLOR")
        }
    }
}
