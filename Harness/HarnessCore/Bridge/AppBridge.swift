import Foundation
import HarnessSystem
import HarnessWire

/// The test's handle on a connected, ready app: typed calls, probes, spies and events.
///
/// ```swift
/// let app = try await listener.waitForReady(timeout: .seconds(5))
/// try await app.call("given", AppState.error("offline"))
/// let state = try await app.probe("state", as: AppState.self)
/// let states = try await app.nextEvents(3, named: "state", timeout: .seconds(2))
/// ```
public struct AppBridge: Sendable {
    let client: BridgeClient

    /// The time a call waits for its reply when neither the call nor the launch sets one.
    package static let defaultTimeout: Duration = .seconds(10)

    /// The time a call, probe, event or spy wait waits when it does not pass its own.
    /// A ``TerminalApp``'s bridge takes its launch's `defaultTimeout`, like the screen's waits;
    /// a bridge from ``BridgeListener/waitForReady(timeout:)`` starts with ``AppBridge/defaultTimeout``.
    public var defaultTimeout: Duration

    init(client: BridgeClient, defaultTimeout: Duration = AppBridge.defaultTimeout) {
        self.client = client
        self.defaultTimeout = defaultTimeout
    }

    /// The app name from the app's hello.
    public var appName: String { client.appName }
    /// The process id from the app's hello.
    package var appPID: Int { client.appPID }

    // MARK: - Calls

    /// Calls the handler or probe `name` with `params` and decodes its result as `R`.
    public func call<P: Encodable, R: Decodable>(
        _ name: String, _ params: P, as type: R.Type, timeout: Duration? = nil
    ) async throws -> R {
        let raw = try await callRaw(name, params: Self.encode(params), timeout: timeout)
        return try BridgeDecoding.decode(raw, as: R.self)
    }

    /// Calls the handler `name` with `params`, ignoring its result.
    public func call<P: Encodable>(_ name: String, _ params: P, timeout: Duration? = nil) async throws {
        _ = try await callRaw(name, params: Self.encode(params), timeout: timeout)
    }

    /// Calls `name` without params and decodes its result as `R`.
    public func call<R: Decodable>(_ name: String, as type: R.Type, timeout: Duration? = nil) async throws -> R {
        let raw = try await callRaw(name, params: .null, timeout: timeout)
        return try BridgeDecoding.decode(raw, as: R.self)
    }

    /// Calls `name` without params, ignoring its result.
    public func call(_ name: String, timeout: Duration? = nil) async throws {
        _ = try await callRaw(name, params: .null, timeout: timeout)
    }

    /// Calls `name` with raw JSON params and returns the raw JSON result.
    public func callRaw(_ name: String, params: RawJSON, timeout: Duration? = nil) async throws -> RawJSON {
        try await client.call(name, params: params, timeout: timeout ?? defaultTimeout)
    }

    /// Reads the probe `name` and decodes its value as `T`.
    public func probe<T: Decodable>(_ name: String, as type: T.Type = T.self, timeout: Duration? = nil) async throws -> T {
        try await call(name, as: T.self, timeout: timeout)
    }

    /// What the app exposes (from the built-in `__names` call).
    package func names(timeout: Duration? = nil) async throws -> ExposedNames {
        try await call("__names", as: ExposedNames.self, timeout: timeout)
    }

    // MARK: - Spies

    /// A handle on the app's spy `name`, whose values decode as `T`.
    ///
    /// ``SpyHandle/waitForCall(timeout:fileID:filePath:line:column:)`` returns calls that arrive after this handle was made.
    public func spy<T: Decodable>(_ name: String, as type: T.Type = T.self) -> SpyHandle<T> {
        SpyHandle(name: name, bridge: self)
    }

    // MARK: - Events

    /// Every event the app published, from the first one, then live ones; ends when the bridge ends.
    public var events: AsyncStream<BridgeEvent> { client.subscribe() }

    /// The events received so far.
    package var receivedEvents: [BridgeEvent] { client.receivedEvents }

    /// The events received so far with the time each arrived (for the run report's timeline).
    package var timedEvents: [(event: BridgeEvent, receivedAt: Date)] { client.timedEvents }

    /// How many older events were dropped because the events went over the output limit
    /// (``AppLaunch/outputLimit``), and the bytes they held: ``receivedEvents`` are the newest.
    public var droppedEvents: (count: Int, bytes: Int) { client.droppedEvents }

    /// Every spy record so far with the time it arrived (for the run report's timeline).
    package var timedRecords: [(spy: String, value: RawJSON, receivedAt: Date)] { client.timedRecords }

    /// Waits for the next `count` events (named `name`, or any), in order.
    ///
    /// Each filter (each name, and "any") has its own cursor: successive calls return
    /// successive events, starting from the first event the app published.
    public func nextEvents(
        _ count: Int, named name: String? = nil, timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> [BridgeEvent] {
        try await CallSiteFailures.reporting("\(filePath)") {
            do {
                return try await client.nextEvents(count, named: name, timeout: timeout ?? defaultTimeout)
            } catch let error as BridgeError {
                throw error.at(SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
            }
        }
    }

    /// Waits for the next event (named `name`, or any).
    public func nextEvent(
        named name: String? = nil, timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> BridgeEvent {
        try await nextEvents(1, named: name, timeout: timeout, fileID: fileID, filePath: filePath, line: line, column: column)[0]
    }

    static func encode<P: Encodable>(_ params: P) throws(BridgeError) -> RawJSON {
        do { return try RawJSON(encoding: params) } catch {
            throw .unencodable(type: String(reflecting: P.self), detail: String(describing: error))
        }
    }
}

/// The names an app exposes, as returned by the built-in `__names` call.
package struct ExposedNames: Codable, Sendable, Equatable {
    /// Probe names.
    public var probes: [String]
    /// Handler names.
    public var handlers: [String]
    /// Spy names.
    public var spies: [String]
    /// Built-in call names.
    public var builtIns: [String]
}
