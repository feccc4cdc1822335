/// A minimal JSON scanner for the message envelope: it finds the top-level
/// fields of an object and the byte ranges of their values without building a
/// tree, validating the grammar of everything it skips (RFC 8259).
struct JSONScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private(set) var position: Int
    /// The first key that ``scanTopLevelObject(tailMembers:)`` met twice, if any.
    private(set) var firstDuplicateKey: String?

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        self.position = 0
    }

    // MARK: - Entry points

    /// Checks that the whole buffer is exactly one JSON value (with optional whitespace).
    mutating func skipSingleValue() throws(WireError) {
        skipWhitespace()
        try skipValue(depth: 0)
        skipWhitespace()
        guard position == bytes.count else { throw fail("unexpected data after the value") }
    }

    /// Parses a top-level object into (key, value range) pairs; later duplicates win when looked up.
    ///
    /// A member whose key is in `tailMembers` must be the object's last: its value is
    /// everything between the colon and the closing brace, whitespace trimmed, and is
    /// not parsed (so its cost does not grow with its size). Whoever decodes it checks it.
    mutating func scanTopLevelObject(tailMembers: Set<String> = []) throws(WireError) -> [String: Range<Int>] {
        skipWhitespace()
        guard position < bytes.count else { throw fail("empty payload") }
        guard bytes[position] == UInt8(ascii: "{") else {
            try skipValue(depth: 0)  // reports malformed JSON before "not an object"
            throw WireError.notAnObject
        }
        position += 1
        var fields: [String: Range<Int>] = [:]
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            position += 1
        } else {
            while true {
                skipWhitespace()
                let key = try parseString()
                if fields[key] != nil, firstDuplicateKey == nil { firstDuplicateKey = key }
                skipWhitespace()
                try expect(UInt8(ascii: ":"))
                skipWhitespace()
                let start = position
                if tailMembers.contains(key) {
                    fields[key] = try tailValue()
                    return fields
                }
                try skipValue(depth: 1)
                fields[key] = start..<position
                skipWhitespace()
                guard let next = peek() else { throw fail("unterminated object") }
                position += 1
                if next == UInt8(ascii: "}") { break }
                guard next == UInt8(ascii: ",") else { throw fail("expected ',' or '}'", at: position - 1) }
            }
        }
        skipWhitespace()
        guard position == bytes.count else { throw fail("unexpected data after the object") }
        return fields
    }

    /// The range of a last member's value: from here to the object's closing brace,
    /// whitespace trimmed on both ends; consumes the whole buffer.
    private mutating func tailValue() throws(WireError) -> Range<Int> {
        var end = bytes.count
        while end > position, isWhitespace(bytes[end - 1]) { end -= 1 }
        guard end > position, bytes[end - 1] == UInt8(ascii: "}") else {
            throw fail("the object does not end with '}' after its last member", at: end)
        }
        end -= 1
        while end > position, isWhitespace(bytes[end - 1]) { end -= 1 }
        guard end > position else { throw fail("expected a value") }
        let range = position..<end
        position = bytes.count
        return range
    }

    // MARK: - Values

    mutating func skipValue(depth: Int) throws(WireError) {
        guard depth <= BridgeProtocol.maxJSONDepth else { throw fail("nesting deeper than \(BridgeProtocol.maxJSONDepth)") }
        guard let byte = peek() else { throw fail("expected a value") }
        switch byte {
        case UInt8(ascii: "{"):
            try skipContainer(closedBy: UInt8(ascii: "}"), named: "object", keyed: true, depth: depth)
        case UInt8(ascii: "["):
            try skipContainer(closedBy: UInt8(ascii: "]"), named: "array", keyed: false, depth: depth)
        case UInt8(ascii: "\""):
            try skipString()
        case UInt8(ascii: "t"): try expectLiteral("true")
        case UInt8(ascii: "f"): try expectLiteral("false")
        case UInt8(ascii: "n"): try expectLiteral("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try skipNumber()
        default:
            throw fail("unexpected character")
        }
    }

    /// Skips an object's members (`keyed`: a string key and a colon before each value) or an
    /// array's elements, from the opening bracket to `closing`; `name` says which in errors.
    private mutating func skipContainer(closedBy closing: UInt8, named name: String, keyed: Bool, depth: Int) throws(WireError) {
        position += 1
        skipWhitespace()
        if peek() == closing { position += 1; return }
        while true {
            skipWhitespace()
            if keyed {
                try skipString()
                skipWhitespace()
                try expect(UInt8(ascii: ":"))
                skipWhitespace()
            }
            try skipValue(depth: depth + 1)
            skipWhitespace()
            guard let next = peek() else { throw fail("unterminated \(name)") }
            position += 1
            if next == closing { return }
            guard next == UInt8(ascii: ",") else {
                throw fail("expected ',' or '\(Character(Unicode.Scalar(closing)))'", at: position - 1)
            }
        }
    }

    private mutating func skipNumber() throws(WireError) {
        if peek() == UInt8(ascii: "-") { position += 1 }
        guard let first = peek(), isDigit(first) else { throw fail("expected a digit") }
        position += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if peek() == UInt8(ascii: ".") {
            position += 1
            guard let digit = peek(), isDigit(digit) else { throw fail("expected a digit after '.'") }
            skipDigits()
        }
        if let e = peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            position += 1
            if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { position += 1 }
            guard let digit = peek(), isDigit(digit) else { throw fail("expected a digit in the exponent") }
            skipDigits()
        }
    }

    private mutating func skipDigits() {
        while let byte = peek(), isDigit(byte) { position += 1 }
    }

    private mutating func skipString() throws(WireError) {
        try expect(UInt8(ascii: "\""))
        while position < bytes.count {
            // Fast path: plain bytes need no decision beyond these three tests.
            var byte = bytes[position]
            while byte != 0x22 && byte != 0x5C && byte >= 0x20 {
                position += 1
                guard position < bytes.count else { throw fail("unterminated string") }
                byte = bytes[position]
            }
            position += 1
            switch byte {
            case UInt8(ascii: "\""): return
            case UInt8(ascii: "\\"):
                guard let escaped = peek() else { throw fail("unterminated escape") }
                position += 1
                switch escaped {
                case UInt8(ascii: "u"):
                    _ = try hex4()
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                    UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    break
                default: throw fail("invalid escape", at: position - 1)
                }
            case 0..<0x20: throw fail("control character in string", at: position - 1)
            default: break
            }
        }
        throw fail("unterminated string")
    }

    /// Parses a string at the current position into a Swift `String` (escapes decoded, UTF-8 checked).
    mutating func parseString() throws(WireError) -> String {
        guard peek() == UInt8(ascii: "\"") else { throw fail("expected a string") }
        position += 1
        var utf8: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let string = String(validating: utf8, as: UTF8.self) else {
                    throw fail("string is not valid UTF-8")
                }
                return string
            case UInt8(ascii: "\\"):
                guard let escaped = peek() else { throw fail("unterminated escape") }
                position += 1
                switch escaped {
                case UInt8(ascii: "\""): utf8.append(0x22)
                case UInt8(ascii: "\\"): utf8.append(0x5C)
                case UInt8(ascii: "/"): utf8.append(0x2F)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard peek() == UInt8(ascii: "\\"), position + 1 < bytes.count,
                            bytes[position + 1] == UInt8(ascii: "u")
                        else { throw fail("lone high surrogate") }
                        position += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw fail("invalid low surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        throw fail("lone low surrogate")
                    }
                    utf8.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
                default: throw fail("invalid escape", at: position - 1)
                }
            case 0..<0x20: throw fail("control character in string", at: position - 1)
            default: utf8.append(byte)
            }
        }
        throw fail("unterminated string")
    }

    private mutating func hex4() throws(WireError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw fail("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw fail("invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    // MARK: - Helpers

    private func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

    private mutating func skipWhitespace() {
        while let byte = peek(), isWhitespace(byte) { position += 1 }
    }

    private mutating func expect(_ byte: UInt8) throws(WireError) {
        guard peek() == byte else { throw fail("expected '\(Character(Unicode.Scalar(byte)))'") }
        position += 1
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(WireError) {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw fail("truncated literal") }
        let matches = literal.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[position + $0] == expected[$0] }
        }
        guard matches else { throw fail("invalid literal") }
        position += count
    }

    private func fail(_ reason: String, at offset: Int? = nil) -> WireError {
        .malformedJSON(offset: offset ?? position, reason: reason)
    }
}
