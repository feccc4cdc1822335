import Foundation
import HarnessWire
import HarnessSystem

/// The test's view of one spy in the app.
///
/// ```swift
/// let saves = app.spy("database.save", as: [Todo].self)   // before the action
/// try session.type("s")
/// let saved = try await saves.waitForCall(timeout: .seconds(2))
/// #expect(try await saves.count == 1)
/// ```
public final class SpyHandle<T: Decodable>: Sendable {
    /// The spy's name.
    public let name: String
    private let bridge: AppBridge
    private let cursor: Locked<Int>

    init(name: String, bridge: AppBridge) {
        self.name = name
        self.bridge = bridge
        self.cursor = Locked(bridge.client.recordCount(spy: name))
    }

    /// All values recorded so far, read from the app (`__spy.calls`).
    public var calls: [T] {
        get async throws {
            let raw = try await bridge.client.call("__spy.calls", params: Self.params(name), timeout: bridge.defaultTimeout, target: name)
            return try BridgeDecoding.decode(raw, as: [T].self)
        }
    }

    /// How many of the spy's calls the harness has received so far, without asking the app:
    /// what a wait for a call saw when it timed out (a call to the app could itself time out on
    /// a loaded machine).
    package var receivedCount: Int { bridge.client.recordCount(spy: name) }

    /// How many values were recorded so far, read from the app (`__spy.count`).
    public var count: Int {
        get async throws {
            let raw = try await bridge.client.call("__spy.count", params: Self.params(name), timeout: bridge.defaultTimeout, target: name)
            return try BridgeDecoding.decode(raw, as: Int.self)
        }
    }

    /// The last value recorded so far, or nil.
    public var last: T? {
        get async throws { try await calls.last }
    }

    /// Waits for the next call this handle has not returned yet, counting from the
    /// calls that had reached the harness when the handle was made.
    public func waitForCall(
        timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> T {
        let index = cursor.withLock { cursor in
            defer { cursor += 1 }
            return cursor
        }
        return try await value(at: index, timeout: timeout ?? bridge.defaultTimeout,
                               location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Waits for the `number`-th call ever recorded (1-based); returns at once if it already arrived.
    public func waitForCall(
        number: Int, timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> T {
        precondition(number >= 1, "call numbers start at 1")
        return try await value(at: number - 1, timeout: timeout ?? bridge.defaultTimeout,
                               location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    private func value(at index: Int, timeout: Duration, location: SourceCodeLocation) async throws -> T {
        let raw = try await CallSiteFailures.reporting("\(location.filePath)") {
            do {
                return try await bridge.client.waitForRecord(spy: name, index: index, timeout: timeout)
            } catch let error as BridgeError {
                throw error.at(location)
            }
        }
        return try BridgeDecoding.decode(raw, as: T.self)
    }

    private static func params(_ name: String) -> RawJSON {
        (try? RawJSON(encoding: ["name": name])) ?? .null
    }
}
