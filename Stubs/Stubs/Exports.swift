// A test that imports only `Stubs` catches `WaitTimeoutError` by its timeout shape too
// (`catch let error as any WaitTimeoutCarrying`).
@_exported import struct HarnessSystem.WaitTimeout
@_exported import protocol HarnessSystem.WaitTimeoutCarrying
