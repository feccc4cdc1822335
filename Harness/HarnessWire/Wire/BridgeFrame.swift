import Foundation

/// Turns messages into frames: a 4-byte big-endian payload length, then the JSON payload.
public enum BridgeFrame {
    /// Encodes `message` as one frame (header included).
    ///
    /// Throws ``WireError/frameTooLarge(length:limit:)`` when the payload exceeds `maxFrameSize`.
    public static func encode(
        _ message: BridgeMessage,
        maxFrameSize: Int = BridgeProtocol.defaultMaxFrameSize
    ) throws(WireError) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 64 + message.payloadSizeHint)
        writer.bytes.append(contentsOf: [0, 0, 0, 0])
        message.writeJSON(into: &writer)
        let length = writer.bytes.count - BridgeProtocol.headerSize
        guard length <= maxFrameSize, length <= Int(UInt32.max) else {
            throw .frameTooLarge(length: length, limit: maxFrameSize)
        }
        let length32 = UInt32(length)
        writer.bytes[0] = UInt8(truncatingIfNeeded: length32 >> 24)
        writer.bytes[1] = UInt8(truncatingIfNeeded: length32 >> 16)
        writer.bytes[2] = UInt8(truncatingIfNeeded: length32 >> 8)
        writer.bytes[3] = UInt8(truncatingIfNeeded: length32)
        return writer.bytes
    }

    /// Decodes one frame payload (without its header) into a message.
    public static func decodePayload(_ payload: ArraySlice<UInt8>) throws(WireError) -> BridgeMessage {
        guard !payload.isEmpty else { throw .emptyFrame }
        let fields: [String: Range<Int>]
        let base = payload.startIndex
        fields = try payload.withUnsafeBufferPointer { (buffer) throws(WireError) in
            var scanner = JSONScanner(buffer)
            return try scanner.scanTopLevelObject(tailMembers: BridgeProtocol.rawValueMembers)
        }
        var reader = EnvelopeReader(payload: payload, base: base, fields: fields, type: "")
        return try BridgeMessage.read(from: &reader)
    }
}

extension BridgeMessage {
    var payloadSizeHint: Int {
        switch self {
        case .call(_, _, let params): params.data.count
        case .reply(_, .success(let result)): result.data.count
        case .event(_, _, let value), .record(_, _, let value): value.data.count
        default: 0
        }
    }

    /// Writes the envelope; a raw JSON member (params, result, value) always comes last.
    func writeJSON(into writer: inout JSONWriter) {
        writer.raw("{\"type\":")
        writer.string(typeName)
        switch self {
        case .hello(let version, let token, let pid, let app):
            writer.raw(",\"version\":"); writer.integer(version)
            writer.raw(",\"token\":"); writer.string(token)
            writer.raw(",\"pid\":"); writer.integer(pid)
            writer.raw(",\"app\":"); writer.string(app)
        case .welcome(let version):
            writer.raw(",\"version\":"); writer.integer(version)
        case .refused(let code, let reason):
            writer.raw(",\"code\":"); writer.string(code)
            writer.raw(",\"reason\":"); writer.string(reason)
        case .ready:
            break
        case .call(let id, let name, let params):
            writer.raw(",\"id\":"); writer.integer(id)
            writer.raw(",\"name\":"); writer.string(name)
            writer.raw(",\"params\":"); writer.raw(params.data)
        case .reply(let id, .success(let result)):
            writer.raw(",\"id\":"); writer.integer(id)
            writer.raw(",\"result\":"); writer.raw(result.data)
        case .reply(let id, .failure(let error)):
            writer.raw(",\"id\":"); writer.integer(id)
            writer.raw(",\"error\":{\"code\":"); writer.string(error.code)
            writer.raw(",\"message\":"); writer.string(error.message)
            if let available = error.available {
                writer.raw(",\"available\":"); writer.stringArray(available)
            }
            writer.raw("}")
        case .event(let seq, let name, let value):
            writer.raw(",\"seq\":"); writer.integer(seq)
            writer.raw(",\"name\":"); writer.string(name)
            writer.raw(",\"value\":"); writer.raw(value.data)
        case .record(let spy, let index, let value):
            writer.raw(",\"spy\":"); writer.string(spy)
            writer.raw(",\"index\":"); writer.integer(index)
            writer.raw(",\"value\":"); writer.raw(value.data)
        case .goodbye(let reason):
            writer.raw(",\"reason\":"); writer.string(reason)
        }
        writer.raw("}")
    }

    static func read(from reader: inout EnvelopeReader) throws(WireError) -> BridgeMessage {
        guard reader.fields["type"] != nil else { throw .unknownMessageType("(missing)") }
        let type = try reader.string("type")
        reader.type = type
        switch type {
        case "hello":
            return .hello(
                version: try reader.integer("version"), token: try reader.string("token"),
                pid: try reader.integer("pid"), app: try reader.string("app"))
        case "welcome":
            return .welcome(version: try reader.integer("version"))
        case "refused":
            return .refused(code: try reader.string("code"), reason: try reader.string("reason"))
        case "ready":
            return .ready
        case "call":
            return .call(
                id: try reader.integer("id"), name: try reader.string("name"),
                params: reader.optionalRaw("params") ?? .null)
        case "reply":
            let id: UInt64 = try reader.integer("id")
            if let result = reader.optionalRaw("result") { return .reply(id: id, result: .success(result)) }
            guard reader.fields["error"] != nil else { throw .missingField(type: type, field: "result") }
            return .reply(id: id, result: .failure(try reader.remoteError("error")))
        case "event":
            return .event(
                seq: try reader.integer("seq"), name: try reader.string("name"),
                value: reader.optionalRaw("value") ?? .null)
        case "record":
            return .record(
                spy: try reader.string("spy"), index: try reader.integer("index"),
                value: reader.optionalRaw("value") ?? .null)
        case "goodbye":
            return .goodbye(reason: (try? reader.string("reason")) ?? "")
        default:
            throw .unknownMessageType(type)
        }
    }
}

/// Reads typed fields out of a scanned envelope.
struct EnvelopeReader {
    let payload: ArraySlice<UInt8>
    let base: Int
    let fields: [String: Range<Int>]
    var type: String

    private func range(_ field: String) throws(WireError) -> Range<Int> {
        guard let range = fields[field] else { throw .missingField(type: type, field: field) }
        return (range.lowerBound + base)..<(range.upperBound + base)
    }

    func string(_ field: String) throws(WireError) -> String {
        let range = try range(field)
        let slice = payload[range]
        guard slice.first == UInt8(ascii: "\"") else {
            throw .invalidField(type: type, field: field, expected: "a string")
        }
        return try slice.withUnsafeBufferPointer { (buffer) throws(WireError) in
            var scanner = JSONScanner(buffer)
            return try scanner.parseString()
        }
    }

    func integer<T: FixedWidthInteger>(_ field: String) throws(WireError) -> T {
        let range = try range(field)
        let text = String(decoding: payload[range], as: UTF8.self)
        guard let value = T(text) else {
            throw .invalidField(type: type, field: field, expected: "an integer in range of \(T.self)")
        }
        return value
    }

    func optionalRaw(_ field: String) -> RawJSON? {
        guard let range = try? range(field) else { return nil }
        return RawJSON(trusted: Data(payload[range]))
    }

    func remoteError(_ field: String) throws(WireError) -> RemoteError {
        let range = try range(field)
        let slice = payload[range]
        let inner: [String: Range<Int>]
        do {
            inner = try slice.withUnsafeBufferPointer { (buffer) throws(WireError) in
                var scanner = JSONScanner(buffer)
                return try scanner.scanTopLevelObject()
            }
        } catch {
            throw .invalidField(type: type, field: field, expected: "an object with code and message")
        }
        let reader = EnvelopeReader(payload: payload, base: range.lowerBound, fields: inner, type: "\(type).\(field)")
        var available: [String]?
        if let availableRange = inner["available"] {
            let absolute = (availableRange.lowerBound + range.lowerBound)..<(availableRange.upperBound + range.lowerBound)
            available = try Self.stringArray(payload[absolute], type: type)
        }
        return RemoteError(code: try reader.string("code"), message: try reader.string("message"), available: available)
    }

    static func stringArray(_ slice: ArraySlice<UInt8>, type: String) throws(WireError) -> [String] {
        let invalid = WireError.invalidField(type: type, field: "error.available", expected: "an array of strings")
        guard let data = try? JSONSerialization.jsonObject(with: Data(slice)), let strings = data as? [String] else {
            throw invalid
        }
        return strings
    }
}
