import Foundation

/// One JSON value kept as its UTF-8 text, so each side decodes its own `Codable` types.
///
/// Values that come off the wire are kept as the sender wrote them, unparsed (see
/// ``BridgeProtocol/rawValueMembers``); ``decode(as:)`` checks them. Values made here
/// are well-formed: encoded, or checked by ``init(validating:)``.
public struct RawJSON: Sendable, Hashable, CustomStringConvertible {
    /// The UTF-8 JSON text.
    public let data: Data

    /// The JSON `null`.
    public static let null = RawJSON(trusted: Data("null".utf8))

    /// Wraps text taken as one JSON value without checking it (from the wire, or built
    /// from values already known to be well-formed).
    package init(trusted data: Data) { self.data = data }

    /// Wraps `data` after checking it is exactly one well-formed JSON value.
    public init(validating data: Data) throws(WireError) {
        let bytes = [UInt8](data)
        try bytes.withUnsafeBufferPointer { (buffer) throws(WireError) in
            var scanner = JSONScanner(buffer)
            try scanner.skipSingleValue()
        }
        self.data = data
    }

    /// Encodes `value` with a default `JSONEncoder`.
    public init<T: Encodable>(encoding value: T) throws {
        self.data = try JSONEncoder().encode(value)
    }

    /// Decodes the value as `T` with a default `JSONDecoder`.
    public func decode<T: Decodable>(as type: T.Type = T.self) throws -> T {
        try JSONDecoder().decode(T.self, from: data)
    }

    /// The JSON text.
    public var text: String { String(decoding: data, as: UTF8.self) }

    /// The JSON text.
    public var description: String { text }
}
