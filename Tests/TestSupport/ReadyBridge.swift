import HarnessCore

extension BridgeListener {
    /// The app's bridge once it is ready, its calls and waits given ``mustSucceedTimeout`` unless
    /// they pass their own: a call that must succeed never fails because the machine is loaded
    /// (the bridge's own 10 s default is for users, not for this suite).
    public func readyBridge() async throws -> AppBridge {
        var bridge = try await waitForReady(timeout: mustSucceedTimeout)
        bridge.defaultTimeout = mustSucceedTimeout
        return bridge
    }
}
