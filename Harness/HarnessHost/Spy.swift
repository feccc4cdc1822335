import HarnessWire

/// A recorder the app calls at a point the tests want to observe, e.g. around a save.
///
/// Every recorded value is encoded at once (on the caller's thread), kept in the
/// host and pushed to the harness; it never blocks. Safe from any thread.
///
/// ```swift
/// let saves = host.spy("database.save", of: [Todo].self)
/// saves.record(todos)
/// ```
public struct Spy<Value: Encodable>: Sendable {
    /// The spy's name, as tests ask for it.
    public let name: String
    let host: HarnessHost

    /// Records one value.
    public func record(_ value: Value) {
        host.record(spy: name, value: value)
    }

    /// How many values have been recorded.
    public var count: Int { host.spyCount(name) }
}
