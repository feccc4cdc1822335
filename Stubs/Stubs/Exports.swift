// A test that imports only `Stubs` catches `WaitTimeoutError` by its timeout shape too
// (`catch let error as any WaitTimeoutCarrying`).
@_exported import struct HarnessSystem.WaitTimeout
@_exported import protocol HarnessSystem.WaitTimeoutCarrying
// JSON values (request bodies, mapping files) are the system layer's, shared with the step engine's
// bridge checks; a test that imports only `Stubs` names them as before.
@_exported import enum HarnessSystem.JSONValue
