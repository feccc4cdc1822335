import HarnessCore
import HarnessSystem

extension FlowRun {
    /// Ends the app and the stub server and removes the sandbox (kept on failure when
    /// `HARNESS_KEEP_SANDBOX=1`, as ``TerminalApp/close(failed:)`` does). Awaited: the task's
    /// thread is free while the event loop ends the program and closes the server.
    package func tearDown(failed: Bool) async {
        await app?.closed(failed: failed)
        app = nil
        await pipedApp?.closed(failed: failed)
        pipedApp = nil
        await stubServer?.stopped()
        stubServer = nil
    }
}
