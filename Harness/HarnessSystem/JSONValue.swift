import Foundation

/// A JSON document as a value: compared structurally (object key order and number spelling ignored).
public enum JSONValue: Sendable, Hashable, Codable, CustomStringConvertible {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number (compared as a Double).
    case number(Double)
    /// A string.
    case string(String)
    /// An array (order matters).
    case array([JSONValue])
    /// An object (key order does not matter).
    case object([String: JSONValue])

    /// Parses JSON text.
    public init(parsing data: Data) throws {
        self = try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// Parses JSON text.
    public init(parsing text: String) throws {
        try self.init(parsing: Data(text.utf8))
    }

    /// The JSON form of any Encodable value.
    public init<Value: Encodable>(encoding value: Value, encoder: JSONEncoder = JSONEncoder()) throws {
        try self.init(parsing: encoder.encode(value))
    }

    /// Decodes any JSON value.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Encodes the value as JSON.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            if value.rounded() == value && abs(value) < 9.0e15 {
                try container.encode(Int64(value))
            } else {
                try container.encode(value)
            }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Compact JSON text with sorted keys.
    public var jsonText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).flatMap { String(data: $0, encoding: .utf8) } ?? "null"
    }

    /// Compact JSON text with sorted keys.
    public var description: String { jsonText }

    /// The JSON type name, for error messages.
    package var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The first place where `self` (expected) and `other` differ, as a JSON path and both values.
    package func firstDifference(from other: JSONValue, path: String = "$") -> String? {
        switch (self, other) {
        case (.object(let expected), .object(let actual)):
            for key in expected.keys.sorted() {
                guard let actualValue = actual[key] else { return "\(path).\(key) is missing" }
                if let difference = expected[key]!.firstDifference(from: actualValue, path: "\(path).\(key)") {
                    return difference
                }
            }
            if let extra = actual.keys.sorted().first(where: { expected[$0] == nil }) {
                return "\(path).\(extra) is not expected"
            }
            return nil
        case (.array(let expected), .array(let actual)):
            for (index, pair) in zip(expected, actual).enumerated() {
                if let difference = pair.0.firstDifference(from: pair.1, path: "\(path)[\(index)]") { return difference }
            }
            if expected.count != actual.count {
                return "\(path) has \(actual.count) elements, expected \(expected.count)"
            }
            return nil
        default:
            return self == other ? nil : "\(path) is \(other.jsonText), expected \(jsonText)"
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    /// `"text"`.
    public init(stringLiteral value: String) { self = .string(value) }
    /// `42`.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// `true`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// `[a, b]`.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// `["key": value]` (the last of repeated keys wins).
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
