import Foundation
import Stubs

// The Model Context Protocol's messages are JSON values (``JSONValue``, the stub server's):
// decoded from a request line, built with literals, encoded into a response line.

extension JSONValue {
    /// The member `key` of an object (nil otherwise, or when absent).
    subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The string, when this is one.
    var string: String? { if case .string(let value) = self { value } else { nil } }
    /// The integer, when this is a number without a fraction.
    var integer: Int? {
        if case .number(let value) = self, value.rounded() == value, abs(value) < 9.0e15 { return Int(value) }
        return nil
    }
    /// The Boolean, when this is one.
    var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    /// The elements, when this is an array.
    var array: [JSONValue]? { if case .array(let value) = self { value } else { nil } }
    /// The members, when this is an object.
    var object: [String: JSONValue]? { if case .object(let value) = self { value } else { nil } }

    /// An integer as a JSON number.
    static func int(_ value: Int) -> JSONValue { .number(Double(value)) }

    /// Parses one message; nil when it is not JSON.
    static func message(_ data: Data) -> JSONValue? { try? JSONValue(parsing: data) }
}
