// `import Harness` is all a test needs: the framework-free core (sessions, waits, snapshots,
// the bridge client, the sandbox, `TerminalApp`) and the screen model come along with the
// assertions that report through Swift Testing and XCTest. The step engine
// (HarnessSteps) runs a test's steps but is not re-exported: its runner, results and report
// model are the flow front end's business, not a test's.
@_exported import HarnessCore
// The screen model a test reads and names; the emulator itself (`Terminal`, its modes) is
// `import TerminalEmulator`'s.
@_exported import struct TerminalEmulator.ScreenSnapshot
@_exported import struct TerminalEmulator.ScreenRegion
@_exported import enum TerminalEmulator.ScreenArea
@_exported import struct TerminalEmulator.TextStyle
// What `app.bridge.callRaw` takes and gives; the rest of the wire is the bridge's business
// (`import HarnessWire`).
@_exported import struct HarnessWire.RawJSON
// The one timeout shape every module's timeout error carries (`catch let error as any
// WaitTimeoutCarrying`), without the rest of the system layer.
@_exported import struct HarnessSystem.WaitTimeout
@_exported import protocol HarnessSystem.WaitTimeoutCarrying
// What an error says about the line that failed, so that its own errors are reported there too.
@_exported import protocol HarnessSystem.SourceLocatedError
@_exported import struct HarnessSystem.SourceSite
