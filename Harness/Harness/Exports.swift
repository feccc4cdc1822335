// `import Harness` is all a test needs: the framework-free core (sessions, waits, snapshots,
// the bridge client, the sandbox, `TerminalApp`), the screen model and the bridge's wire types
// come along with the assertions that report through Swift Testing and XCTest. The step engine
// (HarnessSteps) runs a test's steps but is not re-exported: its runner, results and report
// model are the flow front end's business, not a test's.
@_exported import HarnessCore
@_exported import HarnessWire
@_exported import TerminalEmulator
// The one timeout shape every module's timeout error carries (`catch let error as any
// WaitTimeoutCarrying`), without the rest of the system layer.
@_exported import struct HarnessSystem.WaitTimeout
@_exported import protocol HarnessSystem.WaitTimeoutCarrying
// What an error says about the line that failed, so that its own errors are reported there too.
@_exported import protocol HarnessSystem.SourceLocatedError
@_exported import struct HarnessSystem.SourceSite
// What `app.run(_:stubServer:)` takes: any server that journals requests (`Stubs`' `StubServer`).
@_exported import protocol HarnessSystem.RequestJournal
@_exported import struct HarnessSystem.JournaledRequest
