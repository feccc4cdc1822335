import Foundation
import HarnessWire

/// An event the app published, with its sequence number (0, 1, 2, ... in publish order).
public struct BridgeEvent: Sendable, Equatable, CustomStringConvertible {
    /// The app's sequence number; a gap means the app dropped events.
    public let seq: UInt64
    /// The event's name, e.g. `state`.
    public let name: String
    /// The event's value as JSON.
    public let value: RawJSON

    /// Decodes the value; throws ``BridgeError/undecodable(type:json:detail:)`` naming the type and showing the JSON.
    public func decode<T: Decodable>(as type: T.Type = T.self) throws(BridgeError) -> T {
        try BridgeDecoding.decode(value, as: T.self)
    }

    /// `#seq name value`.
    public var description: String { "#\(seq) \(name) \(value.text.prefix(200))" }
}

/// Decoding with errors that name the type and show the JSON.
enum BridgeDecoding {
    static let jsonShownLimit = 2000

    static func decode<T: Decodable>(_ raw: RawJSON, as type: T.Type) throws(BridgeError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: raw.data)
        } catch {
            var json = raw.text
            if json.count > jsonShownLimit { json = String(json.prefix(jsonShownLimit)) + "… (\(raw.data.count) bytes)" }
            throw .undecodable(type: String(reflecting: T.self), json: json, detail: describe(error))
        }
    }

    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return String(describing: error) }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return keys.isEmpty ? "at the top level" : "at \(keys)"
        }
        switch error {
        case .typeMismatch(let type, let context): return "expected \(type) \(path(context)): \(context.debugDescription)"
        case .valueNotFound(let type, let context): return "missing \(type) value \(path(context))"
        case .keyNotFound(let key, let context): return "missing key '\(key.stringValue)' \(path(context))"
        case .dataCorrupted(let context): return "corrupted data \(path(context)): \(context.debugDescription)"
        @unknown default: return String(describing: error)
        }
    }
}
