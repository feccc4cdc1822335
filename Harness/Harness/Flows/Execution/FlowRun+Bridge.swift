import Foundation

extension FlowRun {
    // Filled in when TerminalApp (with its bridge) is merged.
    func spyCount(_ name: String, _ count: Int) async throws {
        throw FlowStepFailure("the bridge is not available yet", showsScreen: false)
    }

    func spyLast(_ name: String, _ file: FlowFileReference) async throws {
        throw FlowStepFailure("the bridge is not available yet", showsScreen: false)
    }

    func eventSequence(_ name: String, _ values: [String]) async throws {
        throw FlowStepFailure("the bridge is not available yet", showsScreen: false)
    }

    /// The bridge events received so far as JSON, or nil without a bridge.
    func eventsJSON() -> Data? { nil }
}
