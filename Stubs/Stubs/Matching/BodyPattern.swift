import Foundation

/// How a request body must look.
///
/// ```swift
/// .post("/todos").withBody(.jsonEqual(#"{"title": "Milk"}"#))
/// .post("/log").withBody(.contains("error"))
/// ```
public struct BodyPattern: Sendable, Hashable, CustomStringConvertible {
    enum Kind: Sendable, Hashable {
        case exact(Data)
        case contains(String)
        case matches(String)
        case jsonEqual(JSONValue)
        case invalidJSON(text: String, reason: String)
    }

    let kind: Kind

    /// The body equals these bytes.
    public static func exact(_ bytes: Data) -> BodyPattern { BodyPattern(kind: .exact(bytes)) }

    /// The body equals this UTF-8 text.
    public static func exact(_ text: String) -> BodyPattern { BodyPattern(kind: .exact(Data(text.utf8))) }

    /// The body, read as UTF-8, contains this text.
    public static func contains(_ text: String) -> BodyPattern { BodyPattern(kind: .contains(text)) }

    /// The whole body, read as UTF-8, matches this regular expression.
    public static func matches(_ regex: String) -> BodyPattern { BodyPattern(kind: .matches(regex)) }

    /// The body is JSON structurally equal to this value (key order and whitespace ignored).
    public static func jsonEqual(_ json: JSONValue) -> BodyPattern { BodyPattern(kind: .jsonEqual(json)) }

    /// The body is JSON structurally equal to this JSON text. Invalid text never matches and says why.
    public static func jsonEqual(_ jsonText: String) -> BodyPattern {
        do {
            return BodyPattern(kind: .jsonEqual(try JSONValue(parsing: jsonText)))
        } catch {
            return BodyPattern(kind: .invalidJSON(text: jsonText, reason: "\(error)"))
        }
    }

    /// The body is JSON structurally equal to the JSON encoding of `value`.
    public static func jsonEqual<Value: Encodable>(encoding value: Value) throws -> BodyPattern {
        BodyPattern(kind: .jsonEqual(try JSONValue(encoding: value)))
    }

    /// Whether `body` satisfies the pattern.
    public func matches(_ body: Data) -> Bool { difference(from: body) == nil }

    /// Why `body` does not satisfy the pattern, or nil when it does.
    func difference(from body: Data) -> String? {
        let text = String(decoding: body, as: UTF8.self)
        switch kind {
        case .exact(let expected):
            return body == expected ? nil : "expected exactly \(Self.quote(expected)), was \(Self.quote(body))"
        case .contains(let part):
            return text.contains(part) ? nil : "expected to contain \"\(part)\", was \(Self.quote(body))"
        case .matches(let pattern):
            return RegexCache.wholeMatch(pattern, text) ? nil : "expected to match /\(pattern)/, was \(Self.quote(body))"
        case .jsonEqual(let expected):
            guard let actual = try? JSONValue(parsing: body) else {
                return "expected JSON equal to \(expected.jsonText), was not JSON: \(Self.quote(body))"
            }
            guard let difference = expected.firstDifference(from: actual) else { return nil }
            return "expected JSON equal to \(expected.jsonText): \(difference)"
        case .invalidJSON(let text, let reason):
            return "the expected JSON \(text) is invalid (\(reason))"
        }
    }

    /// A short form for pattern descriptions.
    public var description: String {
        switch kind {
        case .exact(let data): return "body = \(Self.quote(data))"
        case .contains(let text): return "body contains \"\(text)\""
        case .matches(let pattern): return "body matches /\(pattern)/"
        case .jsonEqual(let json): return "body JSON = \(json.jsonText)"
        case .invalidJSON(let text, _): return "body JSON = <invalid \(text)>"
        }
    }

    /// Quotes a body for messages, shortened to 200 characters.
    static func quote(_ data: Data) -> String {
        if data.isEmpty { return "empty" }
        guard let text = String(data: data, encoding: .utf8) else { return "\(data.count) non-UTF-8 bytes" }
        let shown = text.count > 200 ? String(text.prefix(200)) + "… (\(data.count) bytes)" : text
        return "\"\(shown)\""
    }
}
