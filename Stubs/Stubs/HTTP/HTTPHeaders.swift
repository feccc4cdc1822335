import Foundation

/// An ordered list of HTTP header fields with case-insensitive lookup by name.
///
/// ```swift
/// var headers: HTTPHeaders = ["Content-Type": "application/json"]
/// headers.add("X-Trace", "1")
/// headers["content-type"]  // "application/json"
/// ```
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One header field as received or to be sent.
    public struct Field: Sendable, Hashable {
        /// The name as written (lookups ignore case).
        public var name: String
        /// The value, without surrounding whitespace.
        public var value: String

        /// Creates a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in order.
    public private(set) var fields: [Field]

    /// Creates headers from fields in order.
    public init(_ fields: [Field] = []) { self.fields = fields }

    /// Creates headers from (name, value) pairs.
    public init(_ pairs: [(String, String)]) { self.fields = pairs.map { Field(name: $0.0, value: $0.1) } }

    /// Creates headers from a dictionary literal, keeping its order.
    public init(dictionaryLiteral elements: (String, String)...) { self.init(elements) }

    /// The first value of `name` (case-insensitive), or nil.
    public subscript(name: String) -> String? {
        fields.first { $0.name.caseInsensitiveEquals(name) }?.value
    }

    /// All values of `name` (case-insensitive), in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// Whether a field named `name` is present.
    public func contains(_ name: String) -> Bool { fields.contains { $0.name.caseInsensitiveEquals(name) } }

    /// Appends a field, keeping existing ones with the same name.
    public mutating func add(_ name: String, _ value: String) { fields.append(Field(name: name, value: value)) }

    /// Replaces every field named `name` with one field.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    /// Removes every field named `name`.
    public mutating func remove(_ name: String) { fields.removeAll { $0.name.caseInsensitiveEquals(name) } }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// One `Name: value` line per field.
    public var description: String { fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n") }
}

extension String {
    /// ASCII case-insensitive equality, the rule for header names and methods.
    func caseInsensitiveEquals(_ other: String) -> Bool {
        if self == other { return true }
        let left = utf8, right = other.utf8
        guard left.count == right.count else { return false }
        return zip(left, right).allSatisfy { asciiLowercase($0) == asciiLowercase($1) }
    }
}

/// Lowercases one ASCII byte.
@inline(__always) func asciiLowercase(_ byte: UInt8) -> UInt8 {
    (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
}
