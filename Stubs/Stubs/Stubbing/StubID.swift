import Foundation

/// Identifies a registered stub; returned by `StubServer.stub(_:_:priority:uses:)`.
public struct StubID: Sendable, Hashable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The identifier text (a UUID unless a mapping file named it).
    public let rawValue: String

    /// Wraps an identifier.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Wraps an identifier literal.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// A new unique identifier.
    public static func unique() -> StubID { StubID(UUID().uuidString.lowercased()) }

    /// The identifier text.
    public var description: String { rawValue }

    /// Whether the id is a UUID made by ``unique()`` (which says nothing a reader can use: show
    /// the stub's route instead).
    public var isGenerated: Bool { UUID(uuidString: rawValue) != nil }

    /// Decodes from a JSON string.
    public init(from decoder: Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }

    /// Encodes as a JSON string.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
