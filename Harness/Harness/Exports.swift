// `import Harness` is all a test needs: the framework-free core (sessions, waits, snapshots,
// the bridge client, the sandbox, `TerminalApp`), the screen model and the bridge's wire types
// come along with the assertions that report through Swift Testing and XCTest.
@_exported import HarnessCore
@_exported import HarnessWire
@_exported import TerminalEmulator
